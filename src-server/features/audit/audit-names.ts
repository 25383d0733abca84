import type { AuditPerson, AuditTargetDto } from '../../contract/audit';
import type { Db } from '../../db/database';

interface RawTarget {
  target_type: string;
  target_id: string | null;
  changes: Record<string, unknown>;
}

const unique = (ids: (string | null | undefined)[]) => [
  ...new Set(ids.filter((id): id is string => typeof id === 'string' && id.length > 0)),
];

/**
 * Names for one page of the log, read as things are now: the user, task, proof or payout each
 * row is about, and the people its facts mention (a forfeit's `user`). A few `in` lookups per
 * page rather than joins on every row of a filtered count. A deleted account reads as deleted
 * (its name is scrubbed); a row that no longer exists at all comes back with no name.
 */
export async function auditNames(db: Db, rows: RawTarget[]) {
  const ofType = (type: string) => unique(rows.filter((r) => r.target_type === type).map((r) => r.target_id));
  const submissionIds = ofType('submission');
  const withdrawalIds = ofType('withdrawal');
  const [submissions, withdrawals] = await Promise.all([
    submissionIds.length
      ? db
          .selectFrom('submissions')
          .select(['_id', 'user_id', 'task_id'])
          .where('_id', 'in', submissionIds)
          .execute()
      : [],
    withdrawalIds.length
      ? db
          .selectFrom('withdrawals')
          .select(['_id', 'user_id', 'amount'])
          .where('_id', 'in', withdrawalIds)
          .execute()
      : [],
  ]);
  const mentioned = rows.map((r) => (typeof r.changes.user === 'string' ? r.changes.user : null));
  const userIds = unique([
    ...ofType('user'),
    ...submissions.map((s) => s.user_id),
    ...withdrawals.map((w) => w.user_id),
    ...mentioned,
  ]);
  const taskIds = unique([...ofType('task'), ...submissions.map((s) => s.task_id)]);
  const [users, tasks] = await Promise.all([
    userIds.length
      ? db
          .selectFrom('users')
          .select(['_id', 'name', 'email', 'deleted_at'])
          .where('_id', 'in', userIds)
          .execute()
      : [],
    taskIds.length
      ? db.selectFrom('tasks').select(['_id', 'title', 'deleted_at']).where('_id', 'in', taskIds).execute()
      : [],
  ]);
  const people = new Map<string, AuditPerson>(
    users.map((u) => [
      u._id,
      u.deleted_at === null
        ? { _id: u._id, name: u.name, email: u.email, deleted: false }
        : { _id: u._id, name: null, email: null, deleted: true },
    ]),
  );
  const taskById = new Map(tasks.map((t) => [t._id, t]));
  const subById = new Map(submissions.map((s) => [s._id, s]));
  const wdById = new Map(withdrawals.map((w) => [w._id, w]));
  const person = (id: string | null | undefined): AuditPerson | null =>
    id ? (people.get(id) ?? { _id: id, name: null, email: null, deleted: true }) : null;
  const task = (id: string | null | undefined) => {
    if (!id) return null;
    const row = taskById.get(id);
    return row
      ? { _id: id, title: row.title, deleted: row.deleted_at !== null }
      : { _id: id, title: null, deleted: true };
  };

  /** The row's target with what it names, or null names where the thing is gone. */
  const target = (r: RawTarget): AuditTargetDto => {
    const base = { type: r.target_type, id: r.target_id };
    const id = r.target_id;
    if (!id) return { ...base, user: null, task: null, amount: null, gone: false };
    switch (r.target_type) {
      case 'user':
        return { ...base, user: person(id), task: null, amount: null, gone: !people.has(id) };
      case 'task': {
        const tk = task(id);
        return { ...base, user: null, task: tk, amount: null, gone: !taskById.has(id) };
      }
      case 'submission': {
        const s = subById.get(id);
        return s
          ? { ...base, user: person(s.user_id), task: task(s.task_id), amount: null, gone: false }
          : { ...base, user: null, task: null, amount: null, gone: true };
      }
      case 'withdrawal': {
        const w = wdById.get(id);
        return w
          ? { ...base, user: person(w.user_id), task: null, amount: w.amount, gone: false }
          : { ...base, user: null, task: null, amount: null, gone: true };
      }
      default:
        return { ...base, user: null, task: null, amount: null, gone: false };
    }
  };

  /** The people the rows' facts name by id, for the screen to show by name. */
  const mentionedPeople = Object.fromEntries(unique(mentioned).map((id) => [id, person(id) as AuditPerson]));
  return { target, people: mentionedPeople };
}
