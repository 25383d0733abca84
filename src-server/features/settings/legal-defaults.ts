import type { LegalDocument } from '../../contract/legal';

/**
 * The built-in texts of the legal pages: starting points an operator must review (with a
 * lawyer) and replace in the admin settings, each saying so in its first line. {site},
 * {email} and {address} are filled from the site's settings when the template is shown.
 * Turkish legal texts keep the formal register their genre expects.
 */
export const LEGAL_TEMPLATES: Record<LegalDocument, { tr: string; en: string }> = {
  terms: {
    tr: `# ŞABLON: yayınlamadan önce gözden geçirilmelidir
Bu metin bir şablondur. Site yöneticisi, bir hukukçuyla birlikte gözden geçirip kendi hizmetine göre düzenlemelidir.

# Kullanım Koşulları
Bu koşullar {site} hizmetinin kullanımına ilişkindir. Hesap oluşturan her kullanıcı bu koşulları kabul etmiş sayılır.

# Hizmet
{site}, kullanıcıların basit internet görevlerini tamamlayıp kanıtlarını yükledikleri ve onaylanan görevler için Türk lirası ödül kazandıkları bir platformdur.

# Hesap
- Her kişi yalnızca bir hesap açabilir.
- Hesap bilgilerinin doğru ve güncel tutulması kullanıcının sorumluluğundadır.
- Şifrenin gizliliğinden kullanıcı sorumludur.

# Görevler ve kanıtlar
- Yüklenen kanıt gerçek olmalı ve görevi kullanıcının kendisinin yaptığını göstermelidir.
- Başkasına ait, düzenlenmiş ya da tekrar kullanılmış kanıtlar reddedilir.
- Kanıtlar yöneticiler tarafından incelenir; ret kararına itiraz edilebilir.

# Ödemeler
- Onaylanan görevlerin ödülü bakiyeye eklenir.
- Bakiye asgari ödeme tutarına ulaştığında Papara veya IBAN ile ödeme talep edilebilir.
- Ödemeler talebin onayından sonra 24-48 saat içinde yapılır.

# Hesabın askıya alınması ve kapatılması
Bu koşullara aykırı davranan hesaplar askıya alınabilir veya kapatılabilir. Hileli yollarla elde edilen bakiye ödenmez.

# İletişim
Sorularınız için: {email}`,
    en: `# TEMPLATE: review before publishing
This text is a template. The site's operator must review it with a lawyer and adapt it to their service.

# Terms of use
These terms govern the use of {site}. Everyone who creates an account accepts them.

# The service
{site} is a platform where users complete simple internet tasks, upload proof, and earn rewards in Turkish lira for approved tasks.

# Your account
- One account per person.
- Keep your account details accurate and up to date.
- You are responsible for keeping your password secret.

# Tasks and proof
- A proof must be genuine and show that you did the task yourself.
- Proof that belongs to someone else, is edited or is reused is rejected.
- Admins review every proof; a rejection can be appealed.

# Payments
- The reward of an approved task is added to your balance.
- Once your balance reaches the minimum payout, you can ask to be paid by Papara or IBAN.
- Payment is made 24-48 hours after the request is approved.

# Suspension and closing
Accounts that break these terms may be suspended or closed. A balance gained by fraud is not paid.

# Contact
Questions: {email}`,
  },
  privacy: {
    tr: `# ŞABLON: yayınlamadan önce gözden geçirilmelidir
Bu metin bir şablondur. Site yöneticisi, bir hukukçuyla birlikte gözden geçirip kendi hizmetine göre düzenlemelidir.

# Gizlilik Politikası
{site} olarak kişisel verilerinizi yalnızca hizmeti sunmak için gereken ölçüde işleriz.

# İşlenen veriler
- Kimlik ve iletişim: ad, e-posta adresi; isteğe bağlı olarak telefon, adres, profil fotoğrafı.
- Görev kayıtları: başlatılan görevler, yüklenen kanıt görselleri, inceleme sonuçları.
- Ödeme: ödeme yöntemi, hesap sahibinin adı, Papara numarası veya IBAN.
- Güvenlik: giriş zamanları, IP adresi, cihaz kimliği.

# Çerezler ve tarayıcıda saklananlar
Site reklam veya analiz çerezi kullanmaz. Tarayıcıda yalnızca hizmetin çalışması için gerekenler saklanır:
- Oturum anahtarı (giriş yapmış kalmanız için),
- Dil tercihi ve kapatılan uygulama yükleme bildirimi,
- Cihaz kimliği ve yalnızca giriş adresine gönderilen güvenlik çerezi (hesabınızı tanınmayan cihazlardan korumak için).

# Verilerin paylaşılması
Verileriniz satılmaz. Ödeme bilgileri yalnızca ödemenin yapılması için kullanılır; yasal bir zorunluluk olmadıkça üçüncü kişilerle paylaşılmaz.

# Saklama süresi
Veriler hesabınız açık olduğu sürece ve yasal saklama süreleri boyunca tutulur. Hesap silindiğinde kimlik bilgileri ve kayıtlı ödeme hesabı silinir; muhasebe kayıtları yasal süre boyunca saklanır.

# Haklarınız
Verilerinize ilişkin taleplerinizi {email} adresine iletebilirsiniz. Ayrıntılar KVKK Aydınlatma Metni'ndedir.`,
    en: `# TEMPLATE: review before publishing
This text is a template. The site's operator must review it with a lawyer and adapt it to their service.

# Privacy policy
{site} processes your personal data only as far as the service needs it.

# What we process
- Identity and contact: name, email address; optionally phone, address, profile photo.
- Task records: tasks you start, the proof images you upload, review results.
- Payment: payment method, account holder's name, Papara number or IBAN.
- Security: sign-in times, IP address, device id.

# Cookies and browser storage
The site uses no advertising or analytics cookies. Your browser keeps only what the service needs to work:
- your session key (to keep you signed in),
- your language and whether you closed the install banner,
- a device id and a security cookie sent only to the sign-in address (to protect your account from unknown devices).

# Sharing
Your data is not sold. Payment details are used only to pay you and are not shared with third parties unless the law requires it.

# Retention
Data is kept while your account is open and for the periods the law requires. When an account is deleted, its identity details and saved payout account are erased; accounting records are kept for the legal period.

# Your rights
Send requests about your data to {email}. The KVKK information notice has the details.`,
  },
  kvkk: {
    tr: `# ŞABLON: yayınlamadan önce gözden geçirilmelidir
Bu metin bir şablondur. Site yöneticisi, bir hukukçuyla birlikte gözden geçirip veri sorumlusunun bilgilerini eklemelidir.

# Kişisel Verilerin İşlenmesine İlişkin Aydınlatma Metni
6698 sayılı Kişisel Verilerin Korunması Kanunu ("KVKK") uyarınca, veri sorumlusu sıfatıyla {site} ({address}) tarafından kişisel verileriniz aşağıda açıklanan kapsamda işlenmektedir.

# İşlenen kişisel veriler
- Kimlik ve iletişim verileri: ad soyad, e-posta adresi, telefon, adres.
- Müşteri işlem verileri: görev kayıtları, yüklenen kanıtlar, bakiye hareketleri.
- Finansal veriler: Papara numarası veya IBAN, hesap sahibinin adı.
- İşlem güvenliği verileri: IP adresi, cihaz kimliği, oturum kayıtları.

# İşleme amaçları
- Üyelik ve hizmet sözleşmesinin kurulması ve ifası,
- Görev kanıtlarının incelenmesi ve ödüllerin ödenmesi,
- Dolandırıcılığın önlenmesi ve bilgi güvenliğinin sağlanması,
- Yasal yükümlülüklerin yerine getirilmesi.

# Hukuki sebepler
KVKK'nın 5. maddesinin 2. fıkrasındaki sözleşmenin kurulması ve ifası, hukuki yükümlülüğün yerine getirilmesi ve meşru menfaat sebeplerine dayanılarak işlenir.

# Aktarım
Kişisel verileriniz, yalnızca ödemenin yapılması için ödeme kuruluşlarına ve yasal zorunluluk hâlinde yetkili kamu kurumlarına aktarılabilir.

# Toplama yöntemi
Veriler, kayıt formu, görev ve ödeme formları ile hizmetin kullanımı sırasında elektronik ortamda toplanır.

# Haklarınız
KVKK'nın 11. maddesi uyarınca verilerinizin işlenip işlenmediğini öğrenme, bilgi talep etme, düzeltilmesini veya silinmesini isteme ve diğer haklarınızı kullanmak için {email} adresine başvurabilirsiniz.`,
    en: `# TEMPLATE: review before publishing
This text is a template. The site's operator must review it with a lawyer and add the data controller's details.

# Information notice on the processing of personal data (KVKK)
Under Turkey's Law No. 6698 on the Protection of Personal Data ("KVKK"), {site} ({address}), as the data controller, processes your personal data as described below.

# Personal data processed
- Identity and contact: full name, email address, phone, address.
- Customer transactions: task records, uploaded proof, balance movements.
- Financial: Papara number or IBAN, account holder's name.
- Transaction security: IP address, device id, session records.

# Purposes
- Setting up and performing the membership and service agreement,
- Reviewing task proof and paying rewards,
- Preventing fraud and keeping information secure,
- Meeting legal obligations.

# Legal grounds
Processing relies on Article 5(2) of the KVKK: setting up and performing a contract, meeting a legal obligation, and legitimate interest.

# Transfers
Your personal data may be transferred only to payment institutions, to pay you, and to authorised public bodies where the law requires it.

# How data is collected
Electronically, through the registration, task and payment forms and while you use the service.

# Your rights
Under Article 11 of the KVKK you may ask whether your data is processed, request information, correction or erasure, and use your other rights by writing to {email}.`,
  },
};

/** A template with the site's own name, contact address and postal address filled in. */
export function fillTemplate(text: string, site: { name: string; email: string; address: string }): string {
  return text
    .replaceAll('{site}', site.name)
    .replaceAll('{email}', site.email)
    .replaceAll('{address}', site.address);
}
