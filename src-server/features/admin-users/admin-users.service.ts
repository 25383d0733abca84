import { randomBytes } from 'node:crypto';
import {
  type AdminUserDetailDto,
  type AdminUserSummaryDto,
  type AdminUsersQuery,
  type AdminUserUpdate,
  checkAdminUserUpdate,
} from '../../contract/admin';
import { kurusToTl } from '../../contract/money';
import type { Page } from '../../contract/types';
import { isUniqueViolation } from '../../db/errors';
import { nowIso } from '../../db/ids';
import { lockForTransaction } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { fail } from '../../http/app-error';
import type { UserRow } from '../../http/env';
import { workKey } from '../../http/expensive-work';
import { changedFields, recordAudit } from '../audit/audit.repository';
import { hashPassword } from '../auth/password';
import { type Adjustment, adjustBalance, type Tx } from '../money/ledger';
import { removeProfilePhoto } from '../profile/profile-photo';
import { deleteSessionsOf } from '../sessions/sessions.repository';
import { deleteTwoFactor } from '../two-factor/two-factor.repository';
import {
  findUserByEmail,
  findUserById,
  lockLiveUser,
  lockUserForDeletion,
  updateUser,
  userTotals,
} from '../users/users.repository';
import { toAdminUserDetail, toAdminUserSummary } from './admin-users.mapper';
import { countActiveAdmins, pageUsers } from './admin-users.repository';
import { type Forfeited, settleForDeletion } from './user-forfeit';
import { lockHeldItems } from './user-forfeit.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'work'>;

export const DELETED_USER_NAME = 'Deleted user';
export const DELETED_BAN_REASON = 'This account was deleted.';

const isActiveAdmin = (u: Pick<UserRow, 'role' | 'status'>) => u.role === 'admin' && u.status === 'active';

/** The role, status and ban reason after the edit; a ban needs a reason, sent or kept. */
function nextStanding(current: UserRow, input: AdminUserUpdate) {
  const status = input.status ?? current.status;
  const role = input.role ?? current.role;
  if (status !== 'banned') return { status, role, banReason: null };
  const banReason = input.banReason !== undefined ? input.banReason : current.ban_reason?.trim() || null;
  if (!banReason) throw fail.invalid('ban_reason_required', 'banReason');
  return { status, role, banReason };
}

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

/**
 * The audit rows of an admin's user edit, each concern under its own action: the profile
 * (name, email), the standing (role, status, ban reason), the balance (before, after: its ledger
 * adjustment) and a password set (never its value or hash).
 */
async function auditUserEdit(
  tx: Tx,
  adminId: string,
  current: UserRow,
  next: { name: string; email: string; role: string; status: string; banReason: string | null },
  extra: { adjusted: Adjustment | null; passwordSet: boolean; now: string },
): Promise<void> {
  const base = { actorId: adminId, targetType: 'user' as const, targetId: current._id, at: extra.now };
  // compared in the API's words, as the log keeps them
  const shown = toAdminUserSummary(current);
  const profile = changedFields(shown, { name: next.name, email: next.email });
  if (Object.keys(profile).length > 0)
    await recordAudit(tx, { ...base, action: 'user.update', changes: profile });
  const standing = changedFields(shown, {
    role: next.role,
    status: next.status,
    banReason: next.banReason,
  });
  if (Object.keys(standing).length > 0)
    await recordAudit(tx, { ...base, action: 'user.status', changes: standing });
  if (extra.adjusted && extra.adjusted.delta !== 0) {
    await recordAudit(tx, {
      ...base,
      action: 'user.balance',
      changes: { balance: [extra.adjusted.previous, extra.adjusted.next], delta: extra.adjusted.delta },
    });
  }
  if (extra.passwordSet) await recordAudit(tx, { ...base, action: 'user.password', changes: { set: true } });
}

/**
 * PUT /api/admin/users/{id}. The new password is hashed before the transaction; inside it the
 * account changes, a new balance is written as a ledger adjustment by this admin, and the
 * change is undone (409 last_admin) if it left the panel without an active admin.
 */
export async function updateUserByAdmin(
  deps: Deps,
  adminId: string,
  id: string,
  body: unknown,
): Promise<AdminUserDetailDto> {
  const checked = checkAdminUserUpdate(body);
  if (!checked.ok) throw fail.invalid(checked.problem.code, checked.problem.field, checked.problem.message);
  const input = checked.value;
  nextStanding(await requireUserRow(deps, id), input);
  const holder = await findUserByEmail(deps.db, input.email);
  if (holder && holder._id !== id) throw fail.conflict('email_in_use');
  const password = input.password;
  const passwordHash = password
    ? await deps.work.cpu.run(workKey.user(adminId), () => hashPassword(password))
    : undefined;

  try {
    return await deps.db.transaction().execute(async (tx) => {
      // the live row, locked: a deletion on another node commits before this reads (404, nothing
      // written) or waits for this edit and then settles the balance it set
      const current = await lockLiveUser(tx, id);
      if (!current) throw fail.notFound('user_not_found');
      const { status, role, banReason } = nextStanding(current, input);
      const now = nowIso(deps.clock);
      const patched = await updateUser(tx, id, {
        name: input.name,
        email: input.email,
        role,
        status,
        ban_reason: banReason,
        ...(passwordHash ? { password_hash: passwordHash } : {}),
        updated_at: now,
      });
      if (!patched) throw fail.notFound('user_not_found');
      // a password set by an admin ends every session of the account (its tokens already stop
      // matching the new password; the rows go too, so none is listed)
      if (passwordHash) await deleteSessionsOf(tx, id);
      const adjusted =
        input.balance !== undefined ? await adjustBalance(tx, id, input.balance, adminId, now) : null;
      await auditUserEdit(
        tx,
        adminId,
        current,
        { name: input.name, email: input.email, role, status, banReason },
        {
          adjusted,
          passwordSet: Boolean(passwordHash),
          now,
        },
      );
      // an active admin stepping down: "the last active admin" must not be decided by two edits
      // at once on two nodes, so they count one after the other. The lock comes after
      // the user's row is written, as in the deletion: always the row, then this lock.
      if (isActiveAdmin(current) && !isActiveAdmin({ role, status })) {
        await lockForTransaction(tx, 'admins');
        if ((await countActiveAdmins(tx, id)) === 0) throw fail.conflict('last_admin');
      }
      // four eyes on money: another admin changes an admin's own balance (the edit is undone)
      if (id === adminId && input.balance !== undefined && input.balance !== current.balance) {
        throw fail.forbidden('own_item');
      }
      // the reply as this edit left the account: read after the commit, a deletion that came
      // next would make a written edit answer 404
      const edited = (await findUserById(tx, id))!;
      return toAdminUserDetail(edited, await userTotals(tx, id));
    });
  } catch (err) {
    // two edits giving one address at the same moment: the unique index decides
    if (isUniqueViolation(err)) throw fail.conflict('email_in_use');
    throw err;
  }
}

/**
 * DELETE /api/admin/users/{id}: the account is anonymised, not removed, so its ledger,
 * submissions and withdrawals stay whole. It must not leave money or slots behind: while the
 * user holds a balance or a pending withdrawal, proof or appeal the deletion is refused (409
 * user_has_money) unless the admin confirms the forfeit (user-forfeit.ts), all in one
 * transaction. Its token stops working at once (deleted accounts are never found), and its
 * stored photo is removed after the commit.
 */
export async function deleteUserByAdmin(
  deps: Deps,
  adminId: string,
  id: string,
  options: { forfeit: boolean },
): Promise<{ _id: string; deleted: true; forfeited: Forfeited }> {
  await requireUserRow(deps, id);
  const unusable = `!deleted:${randomBytes(32).toString('hex')}`;
  // the photo as the row holds it under the lock: a profile save just before may have replaced it
  let photo: string | null = null;
  const forfeited = await deps.db.transaction().execute(async (tx) => {
    // first what the user holds, then the user's row: what the user creates meanwhile is either
    // seen here or refused (holdLiveUser), and a payout or review of a held item (which locks the
    // item, then the user) waits for this or this for it, never both
    await lockHeldItems(tx, id);
    await lockUserForDeletion(tx, id);
    const current = await findUserById(tx, id);
    if (!current) throw fail.notFound('user_not_found');
    photo = current.profile_image;
    // the last active admin: counted under the 'admins' lock, taken after the user's
    // row as in the edit, and only for an admin (a user's deletion waits for no one else's)
    if (isActiveAdmin(current)) {
      await lockForTransaction(tx, 'admins');
      if ((await countActiveAdmins(tx, id)) === 0) throw fail.conflict('last_admin');
    }
    const now = nowIso(deps.clock);
    const settled = await settleForDeletion(tx, id, adminId, now, options.forfeit);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'user.delete',
      targetType: 'user',
      targetId: id,
      changes: { forfeit: options.forfeit, ...settled },
      at: now,
    });
    await updateUser(tx, id, {
      name: DELETED_USER_NAME,
      email: `deleted-${id}@deleted.invalid`,
      password_hash: unusable,
      role: 'user',
      status: 'banned',
      ban_reason: DELETED_BAN_REASON,
      phone: null,
      address: null,
      bio: null,
      profile_image: null,
      one_signal_id: null,
      device_id: null,
      register_ip: null,
      updated_at: now,
      deleted_at: now,
    });
    // nothing of the account's sign-ins is kept: its sessions and second factor go with it
    await deleteSessionsOf(tx, id);
    await deleteTwoFactor(tx, id);
    return settled;
  });
  await removeProfilePhoto(deps, photo);
  return { _id: id, deleted: true, forfeited: { ...forfeited, balance: kurusToTl(forfeited.balance) } };
}
