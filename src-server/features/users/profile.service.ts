import { FIELD_MESSAGES } from '../../contract/field-messages';
import { kurusToTl } from '../../contract/money';
import type { CompletedTaskDto, UpdateProfile } from '../../contract/profile';
import type { UserDto } from '../../contract/types';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import type { ImageUpload } from '../../storage/received-image';
import { workKey } from '../../work/expensive-work';
import { checkPassword } from './auth.service';
import { hashPassword } from './password';
import { approvedSubmissions, type ProfilePatch, updateProfile } from './profile.repository';
import { auditOwnProfile } from './profile-audit';
import { removeProfilePhoto, storeProfilePhoto } from './profile-photo';
import { toUserDto } from './users.mapper';
import type { UserRow } from './users.repository';
import { findUserById, userTotals } from './users.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'throttle' | 'work' | 'files'>;

/**
 * Changes the user's own name, password, phone, address, bio and photo. Absent optional
 * fields stay as they are. A new password needs the current one, checked under the login
 * throttle before anything changes (422 on `currentPassword` when wrong). The password is
 * hashed and the photo re-encoded and stored before the single UPDATE; a failed UPDATE
 * removes the new photo, a successful one the old. Returns the fresh row: a new password
 * hash ends every session issued under the old one.
 */
export async function updateMyProfile(
  deps: Deps,
  user: UserRow,
  input: UpdateProfile,
  ip: string,
  upload?: ImageUpload,
): Promise<{ data: UserDto; row: UserRow; passwordChanged: boolean }> {
  const now = nowIso(deps.clock);
  const patch: ProfilePatch = { name: input.name, updated_at: now };
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.address !== undefined) patch.address = input.address;
  if (input.bio !== undefined) patch.bio = input.bio;
  if (input.language !== undefined) patch.language = input.language;
  if (input.emailNotifications !== undefined) patch.email_notifications = input.emailNotifications ? 1 : 0;
  if (input.password) {
    const current = input.currentPassword ?? '';
    // a session of the account vouches for its holder: a lockout by strangers never stops the
    // owner changing the password, while wrong guesses still count toward every other limit
    const who = { email: user.email, ip, device: null, signedIn: true };
    if (!(await checkPassword(deps, who, user.password_hash, current, 'confirm'))) {
      throw fail.validation({ currentPassword: FIELD_MESSAGES.currentPasswordWrong });
    }
    const password = input.password;
    patch.password_hash = await deps.work.cpu.run(workKey.user(user._id), () => hashPassword(password));
  }
  if (upload?.file) patch.profile_image = await storeProfilePhoto(deps, upload);
  try {
    // an admin's change is logged in its own transaction; a worker's is the one UPDATE it was.
    // Deleted since the request was signed in: its anonymised row takes nothing back (and the
    // audit row of an admin's change is rolled back with it).
    const saved =
      user.role !== 'admin'
        ? await updateProfile(deps.db, user._id, patch)
        : await deps.db.transaction().execute(async (tx) => {
            await auditOwnProfile(tx, user, patch, now);
            if (!(await updateProfile(tx, user._id, patch))) throw fail.notFound('user_not_found');
            return true;
          });
    if (!saved) throw fail.notFound('user_not_found');
  } catch (err) {
    if (patch.profile_image) await removeProfilePhoto(deps, patch.profile_image);
    throw err;
  }
  if (patch.profile_image) await removeProfilePhoto(deps, user.profile_image);
  const fresh = (await findUserById(deps.db, user._id)) ?? user;
  return {
    data: toUserDto(fresh, await userTotals(deps.db, user._id)),
    row: fresh,
    passwordChanged: patch.password_hash !== undefined,
  };
}

/** The user's approved submissions: GET /api/users/me/completed-tasks. */
export async function myCompletedTasks(
  deps: Pick<AppDeps, 'db'>,
  user: UserRow,
): Promise<CompletedTaskDto[]> {
  const rows = await approvedSubmissions(deps.db, user._id);
  return rows.map((r) => ({
    _id: r._id,
    task: { _id: r.task_id, title: r.task_title, reward: kurusToTl(r.task_reward) },
    reward: kurusToTl(r.reward),
    approvedAt: r.reviewed_at ?? r.updated_at,
  }));
}
