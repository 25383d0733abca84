import type { Kysely, Transaction } from 'kysely';
import type { AuditAction, AuditChanges, AuditQuery, AuditTarget } from '../../contract/audit';
import type { Db } from '../../db/database';
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

/** One row, inside the caller's transaction (the action's own). */
export async function recordAudit(db: Conn, e: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: e.at,
      actor_id: e.actorId,
      action: e.action,
      target_type: e.targetType,
      target_id: e.targetId,
      changes: JSON.stringify(scrub(e.changes ?? {})),
    })
    .execute();
}

/**
 * Only the fields whose value changed, as { field: [before, after] } (compared as JSON, so
 * lists and numbers compare by value).
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after)) {
    const a = before[key] ?? null;
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

/** One page, newest first, with the admin's name, and the total. */
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
      'u.name as actor_name',
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
