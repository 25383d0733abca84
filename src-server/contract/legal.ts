import { z } from 'zod';
import { FIELD_MESSAGES } from './schemas';

/**
 * The site's legal texts, each at its own public page: terms of use, privacy policy and the
 * KVKK information notice (aydınlatma metni). The site keeps no cookie or storage beyond what
 * it needs to work, so no separate cookie notice: the privacy policy lists what is kept.
 */
export const LEGAL_DOCUMENTS = ['terms', 'privacy', 'kvkk'] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

export function isLegalDocument(value: string): value is LegalDocument {
  return LEGAL_DOCUMENTS.some((d) => d === value);
}

/** The longest text of one document in one language (characters). */
export const MAX_LEGAL_TEXT_LENGTH = 30_000;

/**
 * A legal document as GET /api/settings/legal/{document} shows it, in both languages. Plain text:
 * paragraphs are separated by a blank line, a line starting with `# ` is a heading and one with
 * `- ` a list item; nothing in it is read as HTML. `template` is true for a language still
 * showing the built-in template (never saved by an admin), which must be reviewed.
 */
export interface LegalDocumentDto {
  document: LegalDocument;
  tr: string;
  en: string;
  template: { tr: boolean; en: boolean };
  /** the last save by an admin; null while both languages are the template */
  updatedAt: string | null;
}

const legalText = z
  .string({ error: FIELD_MESSAGES.invalidValue })
  // Windows line ends as the browser's textarea may send them, kept as one kind
  .transform((v) => v.replace(/\r\n?/g, '\n').trim())
  .pipe(z.string().max(MAX_LEGAL_TEXT_LENGTH, FIELD_MESSAGES.tooLong));

/**
 * PUT /api/settings/legal/{document} (admins): one or both languages. An empty text goes back to
 * the built-in template (a page is never blank). Unknown fields are refused (422).
 */
export const legalUpdateSchema = z
  .strictObject(
    { tr: legalText.optional(), en: legalText.optional() },
    { error: FIELD_MESSAGES.invalidValue },
  )
  .refine((v) => v.tr !== undefined || v.en !== undefined, {
    message: FIELD_MESSAGES.invalidValue,
    path: ['tr'],
  });
export type LegalUpdateInput = z.input<typeof legalUpdateSchema>;
export type LegalUpdate = z.output<typeof legalUpdateSchema>;
