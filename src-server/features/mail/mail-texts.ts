import type { UserLanguage } from '../../contract/account';
import { oneLine } from './mail-transport';

/** What a mail is about; each has its text in both languages. */
export type MailKind =
  | 'password_reset'
  | 'email_verify'
  | 'submission_approved'
  | 'submission_rejected'
  | 'appeal_upheld'
  | 'appeal_overturned'
  | 'withdrawal_paid'
  | 'withdrawal_rejected';

/** The values a mail's text is filled with; all plain text, escaped for the HTML part here. */
export interface MailValues {
  site: string;
  name: string;
  /** a link the mail's button opens */
  link?: string;
  /** an amount already in the site's money format */
  amount?: string;
  task?: string;
  reason?: string;
  minutes?: number;
}

interface Text {
  subject: (v: MailValues) => string;
  /** paragraphs, plain text */
  body: (v: MailValues) => string[];
  button?: string;
}

const TEXTS: Record<UserLanguage, Record<MailKind, Text>> = {
  en: {
    password_reset: {
      subject: (v) => `Reset your ${v.site} password`,
      body: (v) => [
        `Someone (hopefully you) asked to reset the password of your ${v.site} account.`,
        `The link works once, for ${v.minutes} minutes. If you did not ask, ignore this mail: your password stays as it is.`,
      ],
      button: 'Choose a new password',
    },
    email_verify: {
      subject: (v) => `Confirm your email address for ${v.site}`,
      body: (v) => [`Please confirm that this address belongs to your ${v.site} account.`],
      button: 'Confirm my address',
    },
    submission_approved: {
      subject: (v) => `Your proof was approved: ${v.amount}`,
      body: (v) => [`Your proof for "${v.task}" was approved. ${v.amount} was added to your balance.`],
    },
    submission_rejected: {
      subject: (v) => `Your proof for "${v.task}" was rejected`,
      body: (v) => [
        `Your proof for "${v.task}" was rejected.`,
        ...(v.reason ? [`Reason: ${v.reason}`] : []),
        'You can appeal the decision within 7 days from your tasks page.',
      ],
    },
    appeal_upheld: {
      subject: (v) => `Your appeal for "${v.task}" was decided`,
      body: (v) => [
        `Your appeal for "${v.task}" was reviewed and the rejection stands.`,
        ...(v.reason ? [`Response: ${v.reason}`] : []),
      ],
    },
    appeal_overturned: {
      subject: (v) => `Your appeal was accepted: ${v.amount}`,
      body: (v) => [
        `Your appeal for "${v.task}" was accepted and the proof approved. ${v.amount} was added to your balance.`,
        ...(v.reason ? [`Response: ${v.reason}`] : []),
      ],
    },
    withdrawal_paid: {
      subject: (v) => `Your withdrawal of ${v.amount} was paid`,
      body: (v) => [`Your withdrawal of ${v.amount} was approved and sent to your account.`],
    },
    withdrawal_rejected: {
      subject: (v) => `Your withdrawal of ${v.amount} was rejected`,
      body: (v) => [
        `Your withdrawal of ${v.amount} was rejected and the amount returned to your balance.`,
        ...(v.reason ? [`Reason: ${v.reason}`] : []),
      ],
    },
  },
  tr: {
    password_reset: {
      subject: (v) => `${v.site} şifreni sıfırla`,
      body: (v) => [
        `Birisi (umarız sen) ${v.site} hesabının şifresini sıfırlamak istedi.`,
        `Bağlantı bir kez ve ${v.minutes} dakika boyunca çalışır. Sen istemediysen bu e-postayı yok say: şifren değişmez.`,
      ],
      button: 'Yeni şifre belirle',
    },
    email_verify: {
      subject: (v) => `${v.site} için e-posta adresini doğrula`,
      body: (v) => [`Bu adresin ${v.site} hesabına ait olduğunu doğrula.`],
      button: 'Adresimi doğrula',
    },
    submission_approved: {
      subject: (v) => `Kanıtın onaylandı: ${v.amount}`,
      body: (v) => [`"${v.task}" görevi için gönderdiğin kanıt onaylandı. Bakiyene ${v.amount} eklendi.`],
    },
    submission_rejected: {
      subject: (v) => `"${v.task}" kanıtın reddedildi`,
      body: (v) => [
        `"${v.task}" görevi için gönderdiğin kanıt reddedildi.`,
        ...(v.reason ? [`Neden: ${v.reason}`] : []),
        'Karara Görevlerim sayfasından 7 gün içinde itiraz edebilirsin.',
      ],
    },
    appeal_upheld: {
      subject: (v) => `"${v.task}" itirazın sonuçlandı`,
      body: (v) => [
        `"${v.task}" için yaptığın itiraz incelendi; ret kararı geçerli.`,
        ...(v.reason ? [`Yanıt: ${v.reason}`] : []),
      ],
    },
    appeal_overturned: {
      subject: (v) => `İtirazın kabul edildi: ${v.amount}`,
      body: (v) => [
        `"${v.task}" için yaptığın itiraz kabul edildi ve kanıt onaylandı. Bakiyene ${v.amount} eklendi.`,
        ...(v.reason ? [`Yanıt: ${v.reason}`] : []),
      ],
    },
    withdrawal_paid: {
      subject: (v) => `${v.amount} tutarındaki çekim talebin ödendi`,
      body: (v) => [`${v.amount} tutarındaki çekim talebin onaylandı ve hesabına gönderildi.`],
    },
    withdrawal_rejected: {
      subject: (v) => `${v.amount} tutarındaki çekim talebin reddedildi`,
      body: (v) => [
        `${v.amount} tutarındaki çekim talebin reddedildi ve tutar bakiyene iade edildi.`,
        ...(v.reason ? [`Neden: ${v.reason}`] : []),
      ],
    },
  },
};

const GREETING: Record<UserLanguage, (name: string) => string> = {
  en: (name) => `Hello ${name},`,
  tr: (name) => `Merhaba ${name},`,
};

const FOOTER: Record<UserLanguage, (site: string) => string> = {
  en: (site) => `This mail was sent by ${site}.`,
  tr: (site) => `Bu e-posta ${site} tarafından gönderildi.`,
};

/** Text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );
}

/** A mail's subject, plain text and HTML, in the language given (Turkish for an unknown one). */
export function composeMail(
  kind: MailKind,
  language: string,
  values: MailValues,
): { subject: string; text: string; html: string } {
  const lang: UserLanguage = language === 'en' ? 'en' : 'tr';
  const t = TEXTS[lang][kind];
  // names and titles are one line in every part, as in the headers
  values = {
    ...values,
    site: oneLine(values.site),
    name: oneLine(values.name),
    ...(values.task !== undefined ? { task: oneLine(values.task) } : {}),
  };
  const paragraphs = [GREETING[lang](values.name), ...t.body(values)];
  const link = t.button && values.link ? values.link : null;
  const text = [
    ...paragraphs,
    ...(link ? [`${t.button}: ${link}`] : []),
    '--',
    FOOTER[lang](values.site),
  ].join('\n\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const button = link
    ? `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(t.button ?? '')}</a></p>` +
      p(link)
    : '';
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(t.subject(values))}</title></head><body style="font-family:Arial,sans-serif;color:#111827;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">${paragraphs.map(p).join('')}${button}<p style="margin:32px 0 0;color:#4b5563;font-size:13px">${escapeHtml(FOOTER[lang](values.site))}</p></body></html>`;
  return { subject: t.subject(values), text, html };
}
