import { z } from 'zod';
import { FIELD_MESSAGES } from './field-messages';

/**
 * The bulk payout file of one day's approved withdrawals, one file per payment method:
 * `eft` (the IBAN ones, for a bank's bulk EFT upload) and `papara` (for Papara's mass payment).
 * Its columns, in order (docs/payout-file.md tells why these).
 */
export const PAYOUT_FILES = ['eft', 'papara'] as const;
export type PayoutFile = (typeof PAYOUT_FILES)[number];

export const PAYOUT_COLUMNS: Record<PayoutFile, readonly string[]> = {
  eft: ['Sıra No', 'Alıcı Adı Soyadı', 'IBAN', 'Tutar', 'Para Birimi', 'Açıklama', 'Referans No'],
  papara: ['Sıra No', 'Papara No', 'Alıcı Adı Soyadı', 'Tutar', 'Açıklama', 'Referans No'],
};

/** The text of the payment's description column, as the receiver's statement shows it. */
export const PAYOUT_DESCRIPTION = 'TaskReward odemesi';

/** GET /api/admin/withdraws/payouts.csv?day=YYYY-MM-DD&file=eft|papara: a calendar day in Turkey. */
export const payoutFileQuerySchema = z.object({
  day: z
    .string({ error: FIELD_MESSAGES.invalidValue })
    .regex(/^\d{4}-\d{2}-\d{2}$/, FIELD_MESSAGES.invalidValue)
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      FIELD_MESSAGES.invalidValue,
    ),
  file: z.enum(PAYOUT_FILES, { error: FIELD_MESSAGES.invalidValue }),
});
export type PayoutFileQuery = z.output<typeof payoutFileQuerySchema>;
