import { type SqlBool, sql, type Updateable } from 'kysely';
import type { AdminUsersQuery } from '../../contract/admin';
import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';
import type { UserRow } from '../../http/env';
import type { Tx } from '../money/ledger';

type Conn = Db | Tx;

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

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
  if (f.q) {
    const p = likePattern(f.q);
    query = query.where(sql<SqlBool>`(name like ${p} escape '\\' or email like ${p} escape '\\')`);
  }
  return query;
}

/** One page of live accounts matching the filter, newest first, and the total count. */
export async function pageUsers(db: Db, f: AdminUsersQuery): Promise<{ rows: UserRow[]; total: number }> {
  const counted = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, f)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('_id', 'desc')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { rows, total: Number(counted.n) };
}

/** Active admins (role admin, status active, not deleted), leaving one account out when given. */
export async function countActiveAdmins(db: Conn, except?: string): Promise<number> {
  let query = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null);
  if (except) query = query.where('_id', '<>', except);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Changes a live account; false when there is none with this id. */
export async function patchUser(db: Conn, id: string, patch: Updateable<UsersTable>): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set(patch)
    .where('_id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
