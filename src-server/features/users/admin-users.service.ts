import type { AdminUserDetailDto, AdminUserSummaryDto, AdminUsersQuery } from '../../contract/admin';
import type { Page } from '../../contract/types';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { toAdminUserDetail, toAdminUserSummary } from './admin-users.mapper';
import { pageUsers } from './admin-users.repository';
import type { UserRow } from './users.repository';
import { findUserById, userTotals } from './users.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'work'>;

/** An admin who can still act: the panel must keep at least one. */
export const isActiveAdmin = (u: Pick<UserRow, 'role' | 'status'>) =>
  u.role === 'admin' && u.status === 'active';

/** GET /api/admin/users: one page of live accounts, newest first. */
export async function listUsers(deps: Deps, query: AdminUsersQuery): Promise<Page<AdminUserSummaryDto>> {
  const { rows, total } = await pageUsers(deps.db, query);
  return {
    items: rows.map(toAdminUserSummary),
    total,
    page: query.page,
    limit: query.limit,
    pages: Math.ceil(total / query.limit),
  };
}

/** A live account, or 404 user_not_found. */
export async function requireUserRow(deps: Pick<AppDeps, 'db'>, id: string): Promise<UserRow> {
  const user = await findUserById(deps.db, id);
  if (!user) throw fail.notFound('user_not_found');
  return user;
}

/** GET /api/admin/users/{id}. */
export async function getUserDetail(deps: Deps, id: string): Promise<AdminUserDetailDto> {
  const user = await requireUserRow(deps, id);
  return toAdminUserDetail(user, await userTotals(deps.db, id));
}
