import type { AdminSubmissionDto } from '@contract/admin';
import type { FlagDto, FlagKind, LinkedAccountsDto } from '@contract/fraud';
import { getData } from '../../lib/api';

/** The fraud signals' queries: under 'admin', so a change elsewhere refreshes them too. */
export const flagKeys = {
  submission: (id: string) => ['admin', 'submission', id] as const,
  linked: (userId: string) => ['admin', 'user', userId, 'linked'] as const,
};

const id = (value: string) => encodeURIComponent(value);

/** One submission as the review screen shows it (a duplicate's match). */
export const fetchAdminSubmission = (submissionId: string, signal?: AbortSignal) =>
  getData<AdminSubmissionDto>(`/admin/submissions/${id(submissionId)}`, { signal });

/** The accounts sharing a payout account, a device or a registration address, and the account's flags. */
export const fetchLinkedAccounts = (userId: string, signal?: AbortSignal) =>
  getData<LinkedAccountsDto>(`/admin/users/${id(userId)}/linked`, { signal });

export const dismissFlag = (flagId: string, note: string) =>
  getData<FlagDto>(`/admin/flags/${id(flagId)}/dismiss`, { method: 'PUT', body: { note } });

/** The flags still open (not dismissed) among an item's. */
export function openFlags(flags: readonly FlagDto[] | undefined): FlagDto[] {
  return (flags ?? []).filter((f) => !f.dismissed);
}

/** Kinds whose `related` are account ids (shared payout, shared device, address burst). */
export const ACCOUNT_KINDS: readonly FlagKind[] = ['shared_payout', 'shared_device', 'address_burst'];

/** The order flags are listed in: what needs the closest look first. */
const KIND_ORDER: readonly FlagKind[] = [
  'duplicate_proof',
  'shared_payout',
  'too_fast',
  'shared_device',
  'address_burst',
];

/** Open flags first, then by kind (KIND_ORDER), then oldest first. */
export function sortFlags(flags: readonly FlagDto[]): FlagDto[] {
  return [...flags].sort(
    (a, b) =>
      Number(a.dismissed) - Number(b.dismissed) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      a.createdAt.localeCompare(b.createdAt),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A cached reply with `flag` put in place of its older copy wherever it appears: in a page's
 * items, a list, an item's `flags` or a linked-accounts reply. Anything without that flag comes
 * back as it was (the same object), so the queries that do not show it are left alone.
 */
export function replaceFlag<T>(data: T, flag: FlagDto): T {
  return replaceIn(data, flag) as T;
}

function replaceIn(value: unknown, flag: FlagDto): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const next = replaceIn(v, flag);
      if (next !== v) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (!isRecord(value)) return value;
  let out = value;
  if (Array.isArray(value.flags) && value.flags.some((f) => isRecord(f) && f._id === flag._id)) {
    out = { ...out, flags: value.flags.map((f) => (isRecord(f) && f._id === flag._id ? flag : f)) };
  }
  if (Array.isArray(value.items)) {
    const items = replaceIn(value.items, flag);
    if (items !== value.items) out = { ...out, items };
  }
  return out;
}
