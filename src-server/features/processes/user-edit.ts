import type { AdminUserDetailDto, AdminUserUpdate } from '../../contract/admin';
import { isUniqueViolation } from '../../db/errors';
import { nowIso } from '../../db/ids';
import { lockForTransaction } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { workKey } from '../../work/expensive-work';
import { changedFields, recordAudit } from '../audit/audit.repository';
import { type Adjustment, adjustBalance, type Tx } from '../money/ledger';
import { toAdminUserDetail, toAdminUserSummary } from '../users/admin-users.mapper';
import { countActiveAdmins } from '../users/admin-users.repository';
import { isActiveAdmin, requireUserRow } from '../users/admin-users.service';
import { hashPassword } from '../users/password';
import { deleteSessionsOf } from '../users/sessions.repository';
import type { UserRow } from '../users/users.repository';
import {
  findUserByEmail,
  findUserById,
  lockLiveUser,
  updateUser,
  userTotals,
} from '../users/users.repository';

/*
 * An admin's edit of an account: the account's own fields through the users folder, and a new
 * balance as a ledger adjustment (money), with the audit rows, in one transaction.
 */

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'work'>;

/** The role, status and ban reason after the edit; a ban needs a reason, sent or kept. */
function nextStanding(current: UserRow, input: AdminUserUpdate) {
  const status = input.status ?? current.status;
  const role = input.role ?? current.role;
  if (status !== 'banned') return { status, role, banReason: null };
  const banReason = input.banReason !== undefined ? input.banReason : current.ban_reason?.trim() || null;
  if (!banReason) throw fail.invalid('ban_reason_required', 'banReason');
  return { status, role, banReason };
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
  input: AdminUserUpdate,
): Promise<AdminUserDetailDto> {
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
