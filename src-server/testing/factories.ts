import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import { newId, nowIso } from '../db/ids';
import type { UsersTable } from '../db/schema';
import { hashPassword } from '../features/auth/password';
import { findUserById } from '../features/users/users.repository';
import type { UserRow } from '../http/env';

let cachedHash: Promise<string> | null = null;
/** Every factory user's password. */
export const TEST_PASSWORD = 'secret123';

/** Inserts a user straight into the database (hashing once per test run). */
export async function makeUser(db: Db, overrides: Partial<Insertable<UsersTable>> = {}): Promise<UserRow> {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const id = overrides._id ?? newId();
  const now = nowIso();
  await db
    .insertInto('users')
    .values({
      _id: id,
      name: 'Test User',
      email: `${id}@example.test`,
      password_hash: await cachedHash,
      role: 'user',
      status: 'active',
      ban_reason: null,
      phone: null,
      address: null,
      bio: null,
      profile_image: null,
      one_signal_id: null,
      device_id: null,
      created_at: now,
      updated_at: now,
      last_active: null,
      deleted_at: null,
      ...overrides,
    })
    .execute();
  return (await findUserById(db, id))!;
}
