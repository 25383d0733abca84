import { type Selectable, type SqlBool, sql, type Transaction } from 'kysely';
import { MAX_LINKED } from '../../contract/fraud';
import type { Db } from '../../db/database';
import { newId } from '../../db/ids';
import type { DB, FlagsTable } from '../../db/schema';
import type { ContentPrints } from '../../storage/content-print';
import { BAND_COLUMNS, bandLookups } from './fingerprint-bands';

type Conn = Db | Transaction<DB>;

export type FlagRow = Selectable<FlagsTable> & { dismissed_by_name: string | null };

export interface NewFlag {
  itemType: FlagsTable['item_type'];
  itemId: string;
  userId: string;
  kind: FlagsTable['kind'];
  en: string;
  tr: string;
  related: string[];
  at: string;
  /** a duplicate proof's similarity, 0-100 */
  similarity?: number;
}

function flagValues(f: NewFlag, related: string[]) {
  return {
    _id: newId(),
    item_type: f.itemType,
    item_id: f.itemId,
    user_id: f.userId,
    kind: f.kind,
    message_en: f.en,
    message_tr: f.tr,
    related: JSON.stringify(related),
    created_at: f.at,
    dismissed_at: null,
    dismissed_by: null,
    dismiss_note: null,
    similarity: f.similarity ?? null,
  };
}

/** A signal on an item created in this transaction: one per item and kind. */
export async function insertFlag(db: Conn, f: NewFlag): Promise<void> {
  await db
    .insertInto('flags')
    .values(flagValues(f, f.related))
    .onConflict((oc) => oc.columns(['item_id', 'kind']).doNothing())
    .execute();
}

/**
 * An account's signal, found again at every sign-up or sign-in: written once, and written again
 * only when the accounts it names changed (the related ids are kept sorted, so equal lists
 * compare equal): then its explanation is brought up to date and, if it was dismissed, it opens
 * again (the dismissal stays in the audit log). Found again unchanged, nothing is written.
 */
export async function upsertAccountFlag(db: Conn, f: NewFlag): Promise<void> {
  const values = flagValues(f, [...f.related].sort());
  await db
    .insertInto('flags')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['item_id', 'kind'])
        .doUpdateSet({
          message_en: f.en,
          message_tr: f.tr,
          related: values.related,
          dismissed_at: null,
          dismissed_by: null,
          dismiss_note: null,
        })
        .where('flags.related', '<>', values.related),
    )
    .execute();
}

/**
 * A proof's duplicate flag as the backfill judged it again: written, or brought up to date while
 * nobody dismissed it, or (null) removed while nobody dismissed it. A dismissed one stays as it
 * was, with its note.
 */
export async function setDuplicateFlag(db: Conn, submissionId: string, f: NewFlag | null): Promise<void> {
  if (!f) {
    await db
      .deleteFrom('flags')
      .where('item_id', '=', submissionId)
      .where('kind', '=', 'duplicate_proof')
      .where('dismissed_at', 'is', null)
      .execute();
    return;
  }
  const values = flagValues(f, f.related);
  await db
    .insertInto('flags')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['item_id', 'kind'])
        .doUpdateSet({
          message_en: f.en,
          message_tr: f.tr,
          related: values.related,
          similarity: values.similarity,
        })
        .where('flags.dismissed_at', 'is', null),
    )
    .execute();
}

function flagsWithNames(db: Conn) {
  return db
    .selectFrom('flags')
    .leftJoin('users as d', 'd._id', 'flags.dismissed_by')
    .selectAll('flags')
    .select('d.name as dismissed_by_name');
}

/** The flags on these items (submissions, withdrawals, accounts), oldest first. */
export async function flagsOn(db: Conn, itemIds: string[]): Promise<FlagRow[]> {
  const ids = [...new Set(itemIds)];
  if (ids.length === 0) return [];
  return flagsWithNames(db).where('flags.item_id', 'in', ids).orderBy('flags.created_at').execute();
}

export function findFlag(db: Conn, id: string): Promise<FlagRow | undefined> {
  return flagsWithNames(db).where('flags._id', '=', id).executeTakeFirst();
}

/** Dismisses a flag still open; false when it was dismissed already (or is gone). */
export async function dismissFlagRow(
  db: Conn,
  id: string,
  by: { adminId: string; note: string; at: string },
): Promise<boolean> {
  const res = await db
    .updateTable('flags')
    .set({ dismissed_at: by.at, dismissed_by: by.adminId, dismiss_note: by.note })
    .where('_id', '=', id)
    .where('dismissed_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * The "flagged" filter: the item, or its account, has a flag not dismissed. `item` and `user`
 * are the columns of the outer query holding the item's id and its account's id. Written as two
 * IN lists over the open flags (index flags_open) so the query starts from the few flagged items
 * (SQLite's multi-index OR, an index on each side) instead of testing every row of the list.
 */
export function hasOpenFlag(item: string, user: string) {
  return sql<SqlBool>`(${sql.ref(item)} IN (SELECT item_id FROM flags WHERE dismissed_at IS NULL AND item_type <> 'user') OR ${sql.ref(user)} IN (SELECT item_id FROM flags WHERE dismissed_at IS NULL AND item_type = 'user'))`;
}

/**
 * Per band at most this many different hashes: a band value tens of thousands of different
 * pictures share is caught by the first ones; random hashes give about 120 rows a band at 1M.
 */
const CANDIDATES_PER_BAND = 20_000;

/** What the band lookup found: the values looked up in each band, and each hash's bands. */
export interface CandidateHashes {
  lookups: number[][];
  /** every hash the lookups found, with the bands (indexes into BAND_COLUMNS) it was found in */
  bands: Map<string, number[]>;
}

/**
 * The hashes of the proofs sharing a band value with one of a new proof's probes
 * (fingerprint-bands.ts): one capped lookup of a list of values a band, answered by the
 * covering indexes (band, hash, _id) alone. Each hash once, however many proofs share it: a
 * campaign's screenshot sent a thousand times is one row a band here, and measured against the
 * probes once. The caller keeps the close hashes and reads their proofs with closeProofs.
 */
export async function proofCandidateHashes(
  db: Conn,
  probes: readonly ContentPrints[],
): Promise<CandidateHashes> {
  const lookups = bandLookups(probes);
  const bands = new Map<string, number[]>();
  for (const [b, column] of BAND_COLUMNS.entries()) {
    if (lookups[b].length === 0) continue;
    const rows = await db
      .selectFrom('submissions')
      .select('proof_hash')
      .distinct()
      .where(column, 'in', lookups[b])
      .limit(CANDIDATES_PER_BAND)
      .execute();
    for (const { proof_hash: hash } of rows) {
      if (hash === null) continue;
      const found = bands.get(hash);
      if (found) found.push(b);
      else bands.set(hash, [b]);
    }
  }
  return { lookups, bands };
}

export interface CloseProof {
  _id: string;
  user_id: string;
  task_id: string;
  proof_hash: string;
  proof_print: string | null;
  created_at: string;
}

/**
 * What the duplicate check needs of the proofs the band lookup found with one of `hashes`:
 * whose, which task, the print. Only the rows the lookup itself found (a band value and the
 * hash found with it), at most `limit`, `except` left out.
 */
export async function closeProofs(
  db: Conn,
  found: CandidateHashes,
  hashes: readonly string[],
  options: { limit: number; except?: string },
): Promise<CloseProof[]> {
  const perBand = BAND_COLUMNS.map(() => [] as string[]);
  for (const hash of hashes) for (const b of found.bands.get(hash) ?? []) perBand[b].push(hash);
  const bands = [...BAND_COLUMNS.keys()].filter((b) => perBand[b].length > 0);
  if (bands.length === 0 || options.limit <= 0) return [];
  let query = db
    .selectFrom('submissions')
    .select(['_id', 'user_id', 'task_id', 'proof_hash', 'proof_print', 'created_at'])
    .where((eb) =>
      eb.or(
        bands.map((b) =>
          eb.and([eb(BAND_COLUMNS[b], 'in', found.lookups[b]), eb('proof_hash', 'in', perBand[b])]),
        ),
      ),
    );
  if (options.except !== undefined) query = query.where('_id', '<>', options.except);
  return (await query.limit(options.limit).execute()) as CloseProof[];
}

/** Other accounts that withdrew to this account number, newest first. */
export async function accountsWithPayoutNumber(
  db: Conn,
  accountNumber: string,
  exceptUserId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('withdrawals')
    .select('user_id')
    .distinct()
    .where('account_number', '=', accountNumber)
    .where('user_id', '<>', exceptUserId)
    .limit(MAX_LINKED)
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * Other accounts with this device id, or registered from this address (since `since`), newest
 * first. A deleted account has neither any more.
 */
export async function accountsSharing(
  db: Conn,
  column: 'device_id' | 'register_ip',
  value: string,
  exceptUserId: string,
  since?: string,
): Promise<string[]> {
  let query = db.selectFrom('users').select('_id').where(column, '=', value).where('_id', '<>', exceptUserId);
  if (since) query = query.where('created_at', '>=', since);
  const rows = await query.orderBy('created_at', 'desc').limit(MAX_LINKED).execute();
  return rows.map((r) => r._id);
}

export interface LinkRow {
  _id: string;
  name: string;
  email: string;
  status: 'active' | 'suspended' | 'banned';
  deleted_at: string | null;
  created_at: string;
  via: 'payout' | 'device' | 'address';
  detail: string;
}

/**
 * The accounts linked to one: those that withdrew to one of its account numbers, those with its
 * device id, those registered from its address (any time). At most MAX_LINKED of each.
 */
export async function linkedAccounts(db: Conn, userId: string): Promise<LinkRow[]> {
  const me = await db
    .selectFrom('users')
    .select(['device_id', 'register_ip'])
    .where('_id', '=', userId)
    .executeTakeFirst();
  if (!me) return [];
  const person = ['u._id', 'u.name', 'u.email', 'u.status', 'u.deleted_at', 'u.created_at'] as const;
  const payout = await db
    .selectFrom('withdrawals as mine')
    .innerJoin('withdrawals as other', 'other.account_number', 'mine.account_number')
    .innerJoin('users as u', 'u._id', 'other.user_id')
    .select(person)
    .select(['mine.account_number as detail', 'mine.payment_method as method'])
    .distinct()
    .where('mine.user_id', '=', userId)
    .where('other.user_id', '<>', userId)
    .limit(MAX_LINKED)
    .execute();
  const out: LinkRow[] = payout.map(({ method: _m, ...r }) => ({ ...r, via: 'payout' as const }));
  const shared = [
    ['device', 'device_id', me.device_id],
    ['address', 'register_ip', me.register_ip],
  ] as const;
  for (const [via, column, value] of shared) {
    if (!value) continue;
    const rows = await db
      .selectFrom('users as u')
      .select(person)
      .where(`u.${column}`, '=', value)
      .where('u._id', '<>', userId)
      .orderBy('u.created_at', 'desc')
      .limit(MAX_LINKED)
      .execute();
    for (const r of rows) out.push({ ...r, via, detail: value });
  }
  return out;
}
