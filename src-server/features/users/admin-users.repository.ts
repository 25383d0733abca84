import type { Transaction } from 'kysely';
import { type SqlBool, sql } from 'kysely';
import type { AdminUsersQuery } from '../../contract/admin';
import type { Db } from '../../db/database';
import { pageWindow } from '../../db/paging';
import type { DB } from '../../db/schema';
import { foldSearch, likeFolded } from '../../db/search';
import type { UserRow } from './users.repository';

type Tx = Transaction<DB>;

type Conn = Db | Tx;

function filtered(db: Conn, f: Pick<AdminUsersQuery, 'q' | 'status'>) {
  let query = db.selectFrom('users').where('deleted_at', 'is', null);
  if (f.status === 'active' || f.status === 'suspended' || f.status === 'banned') {
    query = query.where('status', '=', f.status);
  } else if (f.status === 'admin') {
    query = query.where('role', '=', 'admin');
  } else if (f.status === 'push') {
    query = query.where(
      sql<SqlBool>`(coalesce(trim(one_signal_id), '') <> '' or coalesce(trim(device_id), '') <> '')`,
    );
  }
  // the folded name (users.name_search); emails are stored lower-case ASCII, folded already
  const q = f.q ? foldSearch(f.q) : '';
  if (q) {
    query = query.where(
      () => sql<SqlBool>`(${likeFolded(sql.ref('name_search'), q)} or ${likeFolded(sql.ref('email'), q)})`,
    );
  }
  return query;
}

/**
 * One page of live accounts matching the filter, newest first, and the total count. The page
 * is found on the live-accounts indexes (users_live_newest, users_live_status) from their
 * nearer end (db/paging.ts), then its rows are read.
 */
export async function pageUsers(db: Db, f: AdminUsersQuery): Promise<{ rows: UserRow[]; total: number }> {
  const counted = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const window = pageWindow(total, (f.page - 1) * f.limit, f.limit);
  if (!window) return { rows: [], total };
  const pageIds = filtered(db, f)
    .select('_id')
    .orderBy('created_at', window.direction)
    .orderBy('_id', window.direction)
    .limit(window.limit)
    .offset(window.offset);
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where('_id', 'in', pageIds)
    .orderBy('created_at', 'desc')
    .orderBy('_id', 'desc')
    .execute();
  return { rows, total };
}

/** Active admins (role admin, status active, not deleted), leaving one account out when given. */
export async function countActiveAdmins(db: Conn, except?: string): Promise<number> {
  return Number((await activeAdmins(db, except).executeTakeFirstOrThrow()).n);
}

/** countActiveAdmins's statement, unrun (its plan is checked: an index by role and status). */
export function activeAdmins(db: Conn, except?: string) {
  let query = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null);
  if (except) query = query.where('_id', '<>', except);
  return query;
}
