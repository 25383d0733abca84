import type { RejectionReason } from './constants';

/** The admin CSV exports: GET /api/admin/{submissions|withdraws|users}/export.csv. */
export const EXPORT_KINDS = ['submissions', 'withdraws', 'users'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export type ExportLanguage = 'tr' | 'en';

/**
 * Column titles and the words for stored codes, per language (`?lang=`, Turkish by default:
 * the bookkeeper's Excel). The columns of each kind, in order.
 */
export const EXPORT_WORDS: Record<
  ExportLanguage,
  {
    columns: Record<ExportKind, string[]>;
    status: Record<string, string>;
    role: Record<string, string>;
    method: Record<string, string>;
    reason: Record<RejectionReason, string>;
  }
> = {
  en: {
    columns: {
      submissions: [
        'ID',
        'Date',
        'Task',
        'Task ID',
        'User',
        'Email',
        'User ID',
        'Status',
        'Reward (TL)',
        'Description',
        'Feedback',
        'Rejection reason',
        'Reviewed at',
      ],
      withdraws: [
        'ID',
        'Date',
        'User',
        'Email',
        'User ID',
        'Amount (TL)',
        'Method',
        'Account holder',
        'Account number',
        'Status',
        'Description',
        'Rejection reason',
        'Reviewed at',
      ],
      users: [
        'ID',
        'Name',
        'Email',
        'Phone',
        'Role',
        'Status',
        'Ban reason',
        'Balance (TL)',
        'Total earned (TL)',
        'Registered',
        'Last active',
      ],
    },
    status: {
      pending: 'Pending',
      approved: 'Approved',
      rejected: 'Rejected',
      active: 'Active',
      suspended: 'Suspended',
      banned: 'Banned',
    },
    role: { user: 'User', admin: 'Admin' },
    method: { papara: 'Papara', iban: 'IBAN' },
    reason: {
      missing_text: 'Missing text or too few sentences',
      no_share: 'No share was made',
      irrelevant_evidence: 'Irrelevant evidence',
      low_quality_image: 'Low quality image',
      wrong_format: 'Wrong format',
    },
  },
  tr: {
    columns: {
      submissions: [
        'ID',
        'Tarih',
        'Görev',
        'Görev ID',
        'Kullanıcı',
        'E-posta',
        'Kullanıcı ID',
        'Durum',
        'Ödül (TL)',
        'Açıklama',
        'Geri bildirim',
        'Ret sebebi',
        'İncelenme tarihi',
      ],
      withdraws: [
        'ID',
        'Tarih',
        'Kullanıcı',
        'E-posta',
        'Kullanıcı ID',
        'Tutar (TL)',
        'Yöntem',
        'Hesap sahibi',
        'Hesap numarası',
        'Durum',
        'Açıklama',
        'Ret sebebi',
        'İncelenme tarihi',
      ],
      users: [
        'ID',
        'Ad',
        'E-posta',
        'Telefon',
        'Rol',
        'Durum',
        'Yasaklama sebebi',
        'Bakiye (TL)',
        'Toplam kazanç (TL)',
        'Kayıt tarihi',
        'Son etkinlik',
      ],
    },
    status: {
      pending: 'Beklemede',
      approved: 'Onaylandı',
      rejected: 'Reddedildi',
      active: 'Aktif',
      suspended: 'Askıya alındı',
      banned: 'Yasaklı',
    },
    role: { user: 'Kullanıcı', admin: 'Yönetici' },
    method: { papara: 'Papara', iban: 'IBAN' },
    reason: {
      missing_text: 'Metin eksik veya cümle sayısı az',
      no_share: 'Paylaşım yapılmamış',
      irrelevant_evidence: 'Alakasız kanıt',
      low_quality_image: 'Düşük kaliteli görsel',
      wrong_format: 'Yanlış format',
    },
  },
};
