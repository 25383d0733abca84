import { type SqlBool, sql } from 'kysely';
import type { AdminUsersQuery } from '../../contract/admin';
import type { ReviewStatus } from '../../contract/constants';
import type { AdminWithdrawalsQuery } from '../../contract/withdrawals';
import type { Db } from '../../db/database';
import { containsPattern, foldSearch, likeFolded } from '../../db/search';
import { hasOpenFlag } from '../fraud/fraud.repository';
import { submissionSearch } from '../submissions/submissions.repository';

/** Where a newest-first walk stopped: the last row's (created_at, _id). */
export interface Cursor {
  createdAt: string;
  id: string;
}

/**
 * One batch of the submissions export, newest first, after `cursor` (keyset paging: each batch
 * is its own short query on the (status,) created_at, _id indexes, so a long export holds no
 * read open and memory stays at one batch). Same filters as the review screen's list.
 */
export function submissionsBatch(
  db: Db,
  f: {
    status?: ReviewStatus;
    q?: string;
    task?: string;
    user?: string;
    flagged?: boolean;
    appeal?: 'pending';
  },
  cursor: Cursor | null,
  limit: number,
) {
  let q = db
    .selectFrom('submissions as s')
    .innerJoin('tasks as t', 't._id', 's.task_id')
    .innerJoin('users as u', 'u._id', 's.user_id')
    .select([
      's._id',
      's.created_at',
      's.status',
      's.reward',
      's.description',
      's.feedback',
      's.rejection_reason',
      's.reviewed_at',
      't._id as task_id',
      't.title as task_title',
      'u._id as user_id',
      'u.name as user_name',
      'u.email as user_email',
    ]);
  if (f.status) q = q.where('s.status', '=', f.status);
  if (f.q) q = q.where(submissionSearch(f.q));
  if (f.task) q = q.where('s.task_id', '=', f.task);
  if (f.user) q = q.where('s.user_id', '=', f.user);
  if (f.flagged) q = q.where(hasOpenFlag('s._id', 's.user_id'));
  if (f.appeal === 'pending') {
    q = q.where(
      's._id',
      'in',
      db.selectFrom('appeals').select('submission_id').where('status', '=', 'pending'),
    );
  }
  if (cursor) {
    // the bound on created_at alone lets the index seek to the cursor; the OR alone made every
    // batch scan the index from the newest row (each batch slower than the last)
    q = q
      .where('s.created_at', '<=', cursor.createdAt)
      .where((eb) => eb.or([eb('s.created_at', '<', cursor.createdAt), eb('s._id', '<', cursor.id)]));
  }
  return q.orderBy('s.created_at', 'desc').orderBy('s._id', 'desc').limit(limit).execute();
}

const TURKEY_OFFSET = '+03:00';
const dayStart = (date: string, plusDays = 0) =>
  new Date(Date.parse(`${date}T00:00:00${TURKEY_OFFSET}`) + plusDays * 86_400_000).toISOString();

/** One batch of the withdrawals export, newest first; the management screen's filters. */
export function withdrawalsBatch(
  db: Db,
  f: Pick<AdminWithdrawalsQuery, 'status' | 'from' | 'to' | 'q' | 'userId' | 'flagged'>,
  cursor: Cursor | null,
  limit: number,
) {
  let q = db
    .selectFrom('withdrawals as w')
    .innerJoin('users as u', 'u._id', 'w.user_id')
    .select([
      'w._id',
      'w.created_at',
      'w.amount',
      'w.payment_method',
      'w.full_name',
      'w.account_number',
      'w.status',
      'w.rejection_reason',
      'w.description',
      'w.reviewed_at',
      'u._id as user_id',
      'u.name as user_name',
      'u.email as user_email',
    ]);
  if (f.status) q = q.where('w.status', '=', f.status);
  if (f.userId) q = q.where('w.user_id', '=', f.userId);
  if (f.from) q = q.where('w.created_at', '>=', dayStart(f.from));
  if (f.to) q = q.where('w.created_at', '<', dayStart(f.to, 1));
  if (f.flagged) q = q.where(hasOpenFlag('w._id', 'w.user_id'));
  if (f.q) {
    const folded = foldSearch(f.q);
    const compact = containsPattern(f.q.replace(/\s+/g, '').toUpperCase());
    q = q.where((eb) =>
      eb.or([
        likeFolded(sql.ref('u.name_search'), folded),
        likeFolded(sql.ref('w.full_name_search'), folded),
        sql<SqlBool>`w.account_number like ${compact} escape '\\'`,
      ]),
    );
  }
  if (cursor) {
    // the bound on created_at alone lets the index seek to the cursor; the OR alone made every
    // batch scan the index from the newest row (each batch slower than the last)
    q = q
      .where('w.created_at', '<=', cursor.createdAt)
      .where((eb) => eb.or([eb('w.created_at', '<', cursor.createdAt), eb('w._id', '<', cursor.id)]));
  }
  return q.orderBy('w.created_at', 'desc').orderBy('w._id', 'desc').limit(limit).execute();
}

/** One batch of the users export (live accounts), newest first; the user list's filters. */
export function usersBatch(
  db: Db,
  f: Pick<AdminUsersQuery, 'q' | 'status'>,
  cursor: Cursor | null,
  limit: number,
) {
  let q = db
    .selectFrom('users')
    .select([
      '_id',
      'name',
      'email',
      'phone',
      'role',
      'status',
      'ban_reason',
      'balance',
      'total_earned',
      'created_at',
      'last_active',
    ])
    .where('deleted_at', 'is', null);
  if (f.status === 'active' || f.status === 'suspended' || f.status === 'banned') {
    q = q.where('status', '=', f.status);
  } else if (f.status === 'admin') {
    q = q.where('role', '=', 'admin');
  } else if (f.status === 'push') {
    q = q.where(
      sql<SqlBool>`(coalesce(trim(one_signal_id), '') <> '' or coalesce(trim(device_id), '') <> '')`,
    );
  }
  const search = f.q ? foldSearch(f.q) : '';
  if (search) {
    q = q.where(
      () =>
        sql<SqlBool>`(${likeFolded(sql.ref('name_search'), search)} or ${likeFolded(sql.ref('email'), search)})`,
    );
  }
  if (cursor) {
    // the bound on created_at alone lets the index seek to the cursor; the OR alone made every
    // batch scan the index from the newest row (each batch slower than the last)
    q = q
      .where('created_at', '<=', cursor.createdAt)
      .where((eb) => eb.or([eb('created_at', '<', cursor.createdAt), eb('_id', '<', cursor.id)]));
  }
  return q.orderBy('created_at', 'desc').orderBy('_id', 'desc').limit(limit).execute();
}
