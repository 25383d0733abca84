import { z } from 'zod';

/**
 * The fraud signals: what a flag says about an item. Signals only inform the admin
 * who decides; nothing is rejected, banned or held because of one.
 * - duplicate_proof: a screenshot proof near an earlier proof of another account, or of the same
 *   account for another task (related: the matching submissions, nearest first)
 * - too_fast: a proof sent sooner after its start than the task's minSeconds (related: the task)
 * - shared_payout: a withdrawal to an account number another account used (related: those accounts)
 * - shared_device: an account signed up or in with a device id another account has (related: those)
 * - address_burst: an account registered from an address REGISTRATION_BURST accounts used within
 *   a day (related: the other accounts)
 */
export const FLAG_KINDS = [
  'duplicate_proof',
  'too_fast',
  'shared_payout',
  'shared_device',
  'address_burst',
] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];

export const FLAG_ITEM_TYPES = ['submission', 'withdrawal', 'user'] as const;
export type FlagItemType = (typeof FLAG_ITEM_TYPES)[number];

/** Accounts registered from one address within 24 hours that make the latest one a signal. */
export const REGISTRATION_BURST = 3;
/** At most this many related ids are kept with a flag (the nearest or newest first). */
export const MAX_FLAG_RELATED = 10;
/** A task's minSeconds: 0 (no check) to a day; blank derives it from estimatedTime. */
export const MIN_SECONDS = { min: 0, max: 86_400, floor: 10 } as const;

/**
 * The minimum seconds between a task's start and its proof when the admin set none: a quarter of
 * its estimated time (minutes), at least MIN_SECONDS.floor; the floor when it has no estimate.
 */
export function derivedMinSeconds(estimatedTimeMinutes: number | null): number {
  if (!estimatedTimeMinutes || estimatedTimeMinutes <= 0) return MIN_SECONDS.floor;
  return Math.min(MIN_SECONDS.max, Math.max(MIN_SECONDS.floor, Math.round((estimatedTimeMinutes * 60) / 4)));
}

/** A flag as admins see it, with its explanation in both languages. */
export interface FlagDto {
  _id: string;
  kind: FlagKind;
  /** what the flag is about: a submission, a withdrawal, or an account (shown with its items) */
  itemType: FlagItemType;
  itemId: string;
  /** the explanation in English (the API's language) */
  message: string;
  /** the explanation in both languages, for the screens */
  messages: { en: string; tr: string };
  /** ids of what it relates to: submissions (duplicate_proof), a task (too_fast), accounts (the others) */
  related: string[];
  dismissed: boolean;
  dismissedAt: string | null;
  dismissedBy: { _id: string; name: string } | null;
  dismissNote: string | null;
  createdAt: string;
  /** duplicate_proof: how similar the nearest earlier proof is, 0-100 (null otherwise) */
  similarity: number | null;
}

export const MAX_DISMISS_NOTE = 500;

export const FRAUD_FIELD_MESSAGES = {
  noteRequired: 'Please write why this flag is dismissed (up to 500 characters)',
} as const;

/** PUT /api/admin/flags/{id}/dismiss: only the note is read. */
export const dismissFlagSchema = z.object({
  note: z
    .string({ error: FRAUD_FIELD_MESSAGES.noteRequired })
    .trim()
    .min(1, FRAUD_FIELD_MESSAGES.noteRequired)
    .max(MAX_DISMISS_NOTE, FRAUD_FIELD_MESSAGES.noteRequired),
});

/** How another account is linked to the one looked at. */
export type LinkVia = 'payout' | 'device' | 'address';

/** GET /api/admin/users/{id}/linked: the other accounts, each with every way it is linked. */
export interface LinkedAccountDto {
  _id: string;
  name: string;
  email: string;
  status: 'active' | 'suspended' | 'banned';
  deleted: boolean;
  createdAt: string;
  links: { via: LinkVia; detail: string }[];
}

export interface LinkedAccountsDto {
  accounts: LinkedAccountDto[];
  /** the account's own flags (shared device, address burst) */
  flags: FlagDto[];
}

/** At most this many linked accounts per way of linking. */
export const MAX_LINKED = 50;
