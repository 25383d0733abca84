import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { changedFields, recordAudit } from '../audit/audit.repository';
import type { ProfilePatch } from './profile.repository';
import { toUserDto } from './users.mapper';
import type { UserRow } from './users.repository';

// the totals are the same on both sides of the comparison: none are read
const NO_TOTALS = { pendingBalance: 0, completedTasks: 0, pendingTasks: 0 };

/**
 * An admin's own profile change in the log, inside the change's transaction and before its
 * UPDATE (the row keeps the name the admin had when acting): the fields that changed in the
 * API's words (user.update; the photo as its old and new address) and a new password as a fact
 * (user.password, as when another admin sets one), never its value or hash.
 */
export async function auditOwnProfile(
  tx: Transaction<DB>,
  user: UserRow,
  patch: ProfilePatch,
  at: string,
): Promise<void> {
  const { updated_at: _at, password_hash: newHash, ...fields } = patch;
  const base = { actorId: user._id, targetType: 'user' as const, targetId: user._id, at };
  const changes = changedFields(toUserDto(user, NO_TOTALS), toUserDto({ ...user, ...fields }, NO_TOTALS));
  if (Object.keys(changes).length > 0) await recordAudit(tx, { ...base, action: 'user.update', changes });
  if (newHash !== undefined)
    await recordAudit(tx, { ...base, action: 'user.password', changes: { set: true } });
}
