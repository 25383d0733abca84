import { SETTINGS_FIELD_MESSAGES, type SettingsUpdateInput, settingsUpdateSchema } from '@contract/admin';
import type { PaymentMethod } from '@contract/constants';
import { FIELD_MESSAGES, fieldErrors } from '@contract/schemas';
import type { SettingsDto } from '@contract/types';

export interface GeneralValues {
  name: string;
  descriptionTr: string;
  descriptionEn: string;
}

export const SOCIAL_LINKS = ['facebook', 'twitter', 'instagram', 'linkedin'] as const;
export type SocialLink = (typeof SOCIAL_LINKS)[number];

export type ContactValues = { email: string; phone: string; address: string } & Record<SocialLink, string>;

export interface PaymentValues {
  minimumPayout: string;
  methods: PaymentMethod[];
}

/** The account rules: two switches, each kept in its own settings group. */
export interface AccountValues {
  requireVerifiedEmail: boolean;
  requireAdminTwoFactor: boolean;
}

export const accountValues = (s: SettingsDto): AccountValues => ({
  requireVerifiedEmail: s.payment.requireVerifiedEmail,
  requireAdminTwoFactor: s.security.requireAdminTwoFactor,
});

export const accountPatch = (v: AccountValues): SettingsUpdateInput => ({
  payment: { requireVerifiedEmail: v.requireVerifiedEmail },
  security: { requireAdminTwoFactor: v.requireAdminTwoFactor },
});

export const generalValues = (s: SettingsDto): GeneralValues => ({
  name: s.site.name,
  descriptionTr: s.site.description.tr,
  descriptionEn: s.site.description.en,
});

export const contactValues = (s: SettingsDto): ContactValues => ({ ...s.contact, ...s.socialMedia });

export const paymentValues = (s: SettingsDto): PaymentValues => ({
  minimumPayout: String(s.payment.minimumPayout),
  methods: [...s.payment.methods],
});

export const generalPatch = (v: GeneralValues): SettingsUpdateInput => ({
  site: { name: v.name, description: { tr: v.descriptionTr, en: v.descriptionEn } },
});

export const contactPatch = (v: ContactValues): SettingsUpdateInput => ({
  contact: { email: v.email, phone: v.phone, address: v.address },
  socialMedia: {
    facebook: v.facebook,
    twitter: v.twitter,
    instagram: v.instagram,
    linkedin: v.linkedin,
  },
});

/** The minimum payout is sent as a number (a comma is read as the decimal point). */
export interface ReviewValues {
  autoApproveDays: string;
}

export const reviewValues = (s: SettingsDto): ReviewValues => ({
  autoApproveDays: String(s.review.autoApproveDays),
});

/** The auto-approval days as a number ('' is off, 0); anything else goes to the server's check. */
export function reviewPatch(v: ReviewValues): SettingsUpdateInput {
  const text = v.autoApproveDays.trim();
  return { review: { autoApproveDays: text === '' ? 0 : Number(text) } };
}

export function paymentPatch(v: PaymentValues): SettingsUpdateInput {
  const text = v.minimumPayout.trim().replace(',', '.');
  return {
    payment: { minimumPayout: text === '' ? Number.NaN : Number(text), methods: v.methods },
  };
}

/**
 * A settings field message as a locale key: the settings' own under `admin:settings.errors`,
 * the shared ones under `common:fields`; undefined for a text neither knows.
 */
export function settingsMessageKey(message: string): string | undefined {
  const own = (Object.keys(SETTINGS_FIELD_MESSAGES) as (keyof typeof SETTINGS_FIELD_MESSAGES)[]).find(
    (k) => SETTINGS_FIELD_MESSAGES[k] === message,
  );
  if (own) return `admin:settings.errors.${own}`;
  const shared = (Object.keys(FIELD_MESSAGES) as (keyof typeof FIELD_MESSAGES)[]).find(
    (k) => FIELD_MESSAGES[k] === message,
  );
  return shared ? `common:fields.${shared}` : undefined;
}

/**
 * The server's check of a settings change, run in the browser. Errors are keyed by the form's
 * field names (`site.name` becomes `name`, `site.description.tr` becomes `descriptionTr`).
 */
export function checkSettingsPatch(patch: SettingsUpdateInput): Record<string, string> {
  const parsed = settingsUpdateSchema.safeParse(patch);
  return parsed.success ? {} : formFieldErrors(fieldErrors(parsed.error));
}

const FORM_FIELDS: Record<string, string> = {
  'site.name': 'name',
  'site.description.tr': 'descriptionTr',
  'site.description.en': 'descriptionEn',
  'payment.minimumPayout': 'minimumPayout',
  'payment.methods': 'methods',
};

/** The server's 422 `errors` (dotted paths) under the form's field names. */
export function formFieldErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = FORM_FIELDS[path] ?? path.replace(/^(contact|socialMedia|site|payment|review)\./, '');
    // "payment.methods.0" and the like belong to the list
    out[field.startsWith('methods') ? 'methods' : field] ??= message;
  }
  return out;
}
