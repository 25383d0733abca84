import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../../contract/constants';
import { emailSchema, nameSchema } from '../../contract/schemas';
import { BUSY_COOL_DOWN_MS, isBusyError } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { newId, nowIso } from '../../db/ids';
import { lockForTransaction, withStartupLock } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { log } from '../../observability/logger';
import { recordAudit } from '../audit/audit.repository';
import { hashPassword } from './password';
import { countUsers, findUserByEmail, insertUser, newUserRow, updateUser } from './users.repository';

export interface AdminInput {
  email: string;
  password: string;
  name: string;
}

/** The field's own message for the operator, not zod's JSON dump of the issue. */
function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid value');
  return parsed.data;
}

/**
 * Creates an admin, or makes an existing account of that email an active admin with the
 * given password (so an operator locked out of the panel can get back in).
 */
export async function createOrPromoteAdmin(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  input: AdminInput,
): Promise<'created' | 'promoted'> {
  const email = parseOrThrow(emailSchema, input.email);
  const name = parseOrThrow(nameSchema, input.name);
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw new Error(`The password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  // the sign-in form takes at most 200: an admin given a longer one could never sign in
  if (input.password.length > 200) throw new Error('The password must be at most 200 characters');
  const hash = await hashPassword(input.password);
  const now = nowIso(deps.clock);
  const existing = await findUserByEmail(deps.db, email);
  // the command line has no admin behind it: the log's actor is null
  if (existing) {
    await deps.db.transaction().execute(async (tx) => {
      await updateUser(tx, existing._id, {
        role: 'admin',
        status: 'active',
        ban_reason: null,
        password_hash: hash,
        updated_at: now,
      });
      // serialised with the "last active admin" counts; after the user's row, as the
      // edit and the deletion take it
      await lockForTransaction(tx, 'admins');
      await recordAudit(tx, {
        actorId: null,
        action: 'admin.promote',
        targetType: 'user',
        targetId: existing._id,
        changes: {
          role: [existing.role, 'admin'],
          status: [existing.status, 'active'],
          credentialsReset: true,
        },
        at: now,
      });
    });
    return 'promoted';
  }
  const id = newId();
  await deps.db.transaction().execute(async (tx) => {
    // before the new row, as the first admin's setup takes it (a new row is no one else's)
    await lockForTransaction(tx, 'admins');
    await insertUser(
      tx,
      newUserRow({
        _id: id,
        name,
        email,
        password_hash: hash,
        role: 'admin',
        status: 'active',
        created_at: now,
      }),
    );
    await recordAudit(tx, {
      actorId: null,
      action: 'admin.create',
      targetType: 'user',
      targetId: id,
      changes: { name, email, role: 'admin' },
      at: now,
    });
  });
  return 'created';
}

/**
 * ADMIN_EMAIL / ADMIN_PASSWORD make the first admin, only over an empty database. Nodes
 * starting together take turns under the 'bootstrap' lock, so the first makes it and
 * the others find a user; should two still both try (two starts in one process on SQLite, where
 * the lock is nothing), the email's unique index lets one in and the other goes on without.
 */
export async function ensureBootstrapAdmin(deps: AppDeps): Promise<void> {
  const { adminEmail, adminPassword } = deps.config;
  if (!adminEmail || !adminPassword) return;
  await withStartupLock(deps.db, 'bootstrap', async () => {
    for (let attempt = 1; ; attempt++) {
      if ((await countUsers(deps.db)) > 0) return;
      try {
        await createOrPromoteAdmin(deps, { email: adminEmail, password: adminPassword, name: 'Admin' });
      } catch (err) {
        if (isUniqueViolation(err)) return;
        // two starts in one process on SQLite can also meet as a locked database (the other's
        // transaction holds the write lock while this one waits for it on the same thread), and
        // so can a start beside a command holding the lock: once the connection's cool-down is
        // over, look again (the other's admin is there by then)
        if (isBusyError(err) && attempt < 3) {
          await sleep(BUSY_COOL_DOWN_MS + 100);
          continue;
        }
        throw err;
      }
      log().info(`created the first admin ${adminEmail}`);
      return;
    }
  });
}
