import { kurusToTl } from '../../contract/money';
import type { CompletedTaskDto, UpdateProfile } from '../../contract/profile';
import type { UserDto } from '../../contract/types';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import type { UserRow } from '../../http/env';
import { hashPassword } from '../auth/password';
import { toUserDto } from '../users/users.mapper';
import { findUserById, userTotals } from '../users/users.repository';
import { approvedSubmissions, type ProfilePatch, updateProfile } from './profile.repository';

/**
 * Changes the user's own name, password, phone, address, bio (and photo, once stored by
 * the caller). Absent optional fields stay as they are; the password is hashed before
 * the write, never inside a transaction.
 */
export async function updateMyProfile(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  user: UserRow,
  input: UpdateProfile,
  profileImage?: string,
): Promise<UserDto> {
  const patch: ProfilePatch = { name: input.name, updated_at: nowIso(deps.clock) };
  if (input.password) patch.password_hash = await hashPassword(input.password);
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.address !== undefined) patch.address = input.address;
  if (input.bio !== undefined) patch.bio = input.bio;
  if (profileImage !== undefined) patch.profile_image = profileImage;
  await updateProfile(deps.db, user._id, patch);
  const fresh = (await findUserById(deps.db, user._id)) ?? user;
  return toUserDto(fresh, await userTotals(deps.db, user._id));
}

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
