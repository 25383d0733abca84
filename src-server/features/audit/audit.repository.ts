import type { Kysely, Transaction } from 'kysely';
import type { AuditAction, AuditChanges, AuditQuery, AuditTarget } from '../../contract/audit';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import type { DB } from '../../db/schema';

type Conn = Db | Kysely<DB> | Transaction<DB>;

export interface AuditEntry {
  /** null: the system or the command line */
  actorId: string | null;
  action: AuditAction;
  targetType: AuditTarget;
  targetId: string | null;
  changes?: AuditChanges;
  at: string;
}

/** Fields never written to the log, whatever the caller passes. */
const SECRET = /password|hash|secret|token|api_?key/i;

function scrub(changes: AuditChanges): AuditChanges {
  return Object.fromEntries(Object.entries(changes).filter(([k]) => !SECRET.test(k)));
}

/**
 * One row, inside the caller's transaction (the action's own). The actor's name and email are
 * copied from users as they are now, in the same statement: the row keeps them whatever later
 * becomes of the account (a rename, a deletion that scrubs it).
 */
// compiled once: every write the app makes logs a row, most inside a hot transaction. The
// actor's columns come from a subquery that finds nothing for the system's null actor.
const insertEntry = prepared(
  (
    db: Conn,
    at: string,
    actor: string | null,
    action: AuditAction,
    targetType: AuditTarget,
    targetId: string | null,
    changes: string,
  ) =>
    db.insertInto('audit_log').values({
      at,
      actor_id: actor,
      actor_name: db.selectFrom('users').select('name').where('_id', '=', actor),
      actor_email: db.selectFrom('users').select('email').where('_id', '=', actor),
      action,
      target_type: targetType,
      target_id: targetId,
      changes,
    }),
);

export async function recordAudit(db: Conn, e: AuditEntry): Promise<void> {
  await insertEntry(
    db,
    e.at,
    e.actorId,
    e.action,
    e.targetType,
    e.targetId,
    JSON.stringify(scrub(e.changes ?? {})),
  );
}

/**
 * Only the fields whose value changed, as { field: [before, after] } (compared as JSON, so
 * lists and numbers compare by value). `before` is the thing in the API's shape (its DTO), so
 * `after` can only name fields the API has: the log never learns a column's name.
 */
export function changedFields<T extends object>(
  before: T,
  after: Partial<Record<keyof T, unknown>>,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  const old: Partial<Record<keyof T, unknown>> = before;
  for (const key of Object.keys(after) as (keyof T & string)[]) {
    const a = old[key] ?? null;
    const b = after[key] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[key] = [a, b];
  }
  return out;
}

function filtered(db: Db, f: AuditQuery) {
  let q = db.selectFrom('audit_log as a').where('a.action', '<>', 'audit.start');
  if (f.actor) q = q.where('a.actor_id', '=', f.actor);
  if (f.action) q = q.where('a.action', '=', f.action);
  if (f.targetType) q = q.where('a.target_type', '=', f.targetType);
  if (f.targetId) q = q.where('a.target_id', '=', f.targetId);
  if (f.from) q = q.where('a.at', '>=', `${f.from}T00:00:00.000Z`);
  if (f.to)
    q = q.where('a.at', '<', new Date(Date.parse(`${f.to}T00:00:00.000Z`) + 86_400_000).toISOString());
  return q;
}

/**
 * One page, newest first, with the actor as the row recorded them and whether their account has
 * been deleted since, and the total.
 */
export async function pageAudit(db: Db, f: AuditQuery) {
  const counted = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const offset = (f.page - 1) * f.limit;
  const limit = f.limit;
  const rows = await filtered(db, f)
    .leftJoin('users as u', 'u._id', 'a.actor_id')
    .select([
      'a.id',
      'a.at',
      'a.actor_id',
      'a.actor_name',
      'a.actor_email',
      'u._id as actor_row',
      'u.deleted_at as actor_deleted_at',
      'a.action',
      'a.target_type',
      'a.target_id',
      'a.changes',
    ])
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total };
}

/** When the log began (its first row), or null before the migration. */
export async function auditStart(db: Conn): Promise<string | null> {
  const row = await db
    .selectFrom('audit_log')
    .select('at')
    .where('action', '=', 'audit.start')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.at ?? null;
}
