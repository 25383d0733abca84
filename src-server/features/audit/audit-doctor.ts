import type { Db } from '../../db/database';
import type { LedgerTable } from '../../db/schema';
import { auditStart } from './audit.repository';

/**
 * How a ledger row and its audit row name each other: the audit row's target is the ledger
 * row's `ref` (a submission, a withdrawal) or its user; a balance change also shares the instant
 * (both are written in one transaction with one clock reading). `bothWays`: each audit row of
 * those actions must have its ledger row too.
 */
interface Rule {
  kind: LedgerTable['kind'];
  actions: string[];
  key: 'ref' | 'user_id';
  sameTime?: boolean;
  bothWays: boolean;
  what: string;
}

const RULES: Rule[] = [
  {
    kind: 'reward',
    actions: ['submission.approve', 'submission.auto_approve', 'appeal.overturn'],
    key: 'ref',
    bothWays: true,
    what: 'approval',
  },
  {
    kind: 'withdrawal_refund',
    actions: ['withdrawal.reject'],
    key: 'ref',
    bothWays: true,
    what: 'withdrawal rejection',
  },
  {
    kind: 'adjustment',
    actions: ['user.balance'],
    key: 'user_id',
    sameTime: true,
    bothWays: true,
    what: 'balance change',
  },
  // a deletion without a balance moves nothing: only the forfeit needs its deletion
  { kind: 'forfeit', actions: ['user.delete'], key: 'user_id', bothWays: false, what: 'deletion' },
];

/** Ledger rows of the rule's kind, since the log began, that no audit row of its actions names. */
function ledgerWithoutAudit(db: Db, rule: Rule, start: string) {
  return db
    .selectFrom('ledger as l')
    .select(['l.id', 'l.ref', 'l.user_id'])
    .where('l.kind', '=', rule.kind)
    .where('l.created_at', '>=', start)
    .where(({ not, exists, selectFrom }) => {
      let audit = selectFrom('audit_log as a')
        .select('a.id')
        .where('a.action', 'in', rule.actions)
        .whereRef('a.target_id', '=', `l.${rule.key}`);
      if (rule.sameTime) audit = audit.whereRef('a.at', '=', 'l.created_at');
      return not(exists(audit));
    })
    .execute();
}

/** Audit rows of the rule's actions that no ledger row of its kind answers. */
function auditWithoutLedger(db: Db, rule: Rule) {
  return db
    .selectFrom('audit_log as a')
    .select(['a.id', 'a.action', 'a.target_id'])
    .where('a.action', 'in', rule.actions)
    .where(({ not, exists, selectFrom }) => {
      let ledger = selectFrom('ledger as l')
        .select('l.id')
        .where('l.kind', '=', rule.kind)
        .whereRef(`l.${rule.key}`, '=', 'a.target_id');
      if (rule.sameTime) ledger = ledger.whereRef('l.created_at', '=', 'a.at');
      return not(exists(ledger));
    })
    .execute();
}

/**
 * The doctor's check of the audit log against the ledger, from when the log began:
 * every reward has its approval in the log and every approval its reward; every refund its
 * withdrawal rejection and the other way round; every adjustment its balance change and the
 * other way round; every forfeit its deletion.
 */
export async function checkAuditLedger(db: Db): Promise<string[]> {
  const start = await auditStart(db);
  if (start === null) return [];
  const out: string[] = [];
  for (const rule of RULES) {
    for (const r of await ledgerWithoutAudit(db, rule, start)) {
      const about = rule.key === 'ref' ? `(${r.ref})` : `of user ${r.user_id}`;
      out.push(`${rule.kind} ledger row ${r.id} ${about} has no ${rule.what} in the audit log`);
    }
    if (!rule.bothWays) continue;
    for (const r of await auditWithoutLedger(db, rule))
      out.push(`audit row ${r.id} (${r.action} ${r.target_id}) has no ${rule.kind} in the ledger`);
  }
  return out;
}

/**
 * Every row an admin wrote names them as they were: a row whose actor's account is still live
 * but holds no name or email lost who did it (only an actor deleted before the log kept names
 * has none, and nothing is left to copy).
 */
export async function checkAuditActors(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('audit_log as a')
    .innerJoin('users as u', 'u._id', 'a.actor_id')
    .select(['a.id', 'a.action', 'a.actor_id'])
    .where('u.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('a.actor_name', 'is', null), eb('a.actor_email', 'is', null)]))
    .orderBy('a.id')
    .execute();
  return rows.map((r) => `audit row ${r.id} (${r.action}) does not name its actor ${r.actor_id}`);
}
