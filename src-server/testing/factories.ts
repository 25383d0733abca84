import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import { newId, nowIso } from '../db/ids';
import type { UsersTable } from '../db/schema';
import { hashPassword } from '../features/users/password';
import type { UserRow } from '../features/users/users.repository';
import { findUserById, insertUser, newUserRow } from '../features/users/users.repository';

let cachedHash: Promise<string> | null = null;
/** Every factory user's password. */
export const TEST_PASSWORD = 'secret123';

/** Inserts a user straight into the database (hashing once per test run). */
export async function makeUser(db: Db, overrides: Partial<Insertable<UsersTable>> = {}): Promise<UserRow> {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const id = overrides._id ?? newId();
  const now = nowIso();
  await insertUser(
    db,
    newUserRow({
      _id: id,
      name: 'Test User',
      email: `${id}@example.test`,
      password_hash: await cachedHash,
      role: 'user',
      status: 'active',
      created_at: now,
      ...overrides,
    }),
  );
  return (await findUserById(db, id))!;
}
