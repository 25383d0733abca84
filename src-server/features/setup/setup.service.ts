import type { RegisterInput } from '../../contract/schemas';
import { newId, nowIso } from '../../db/ids';
import { lockForTransaction } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { workKey } from '../../work/expensive-work';
import { recordAudit } from '../audit/audit.repository';
import { countActiveAdmins } from '../users/admin-users.repository';
import { hashPassword } from '../users/password';
import { type SignInOrigin, startSession } from '../users/sessions.service';
import type { UserRow } from '../users/users.repository';
import { findUserByEmail, findUserById, insertUser, newUserRow } from '../users/users.repository';

type Parsed<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

/** The header that carries the setup link's token to the API. */
export const SETUP_TOKEN_HEADER = 'X-Setup-Token';

/**
 * Whether the setup link may be used now: a 409 `setup_done` once an active admin exists (the
 * token is closed then too), a 403 `setup_token_invalid` for a missing, wrong or used token.
 */
export async function checkSetup(deps: AppDeps, token: string | undefined): Promise<void> {
  if ((await countActiveAdmins(deps.db)) > 0) {
    await deps.setup.close();
    throw fail.conflict('setup_done');
  }
  if (!(await deps.setup.accepts(token))) throw fail.forbidden('setup_token_invalid');
}

/**
 * Creates the first admin with the setup link's token and signs them in. The password is hashed
 * first; the transaction then takes the 'admins' lock (nodes sharing a database),
 * checks again that there is no active admin and uses the token up (a conditional DELETE), so
 * of two requests only one creates an account, on whichever nodes they arrive. The other nodes'
 * tokens end in the same transaction.
 */
export async function createFirstAdmin(
  deps: AppDeps,
  token: string | undefined,
  input: Parsed<Pick<RegisterInput, 'name' | 'email' | 'password'>>,
  origin: SignInOrigin,
): Promise<{ user: UserRow; token: string }> {
  const { ip } = origin;
  await checkSetup(deps, token);
  const passwordHash = await deps.work.cpu.run(workKey.address(ip), () => hashPassword(input.password));
  const now = nowIso(deps.clock);
  const id = newId();
  await deps.db.transaction().execute(async (tx) => {
    await lockForTransaction(tx, 'admins');
    if ((await countActiveAdmins(tx)) > 0) throw fail.conflict('setup_done');
    if (!(await deps.setup.use(tx, token))) throw fail.forbidden('setup_token_invalid');
    if (await findUserByEmail(tx, input.email)) throw fail.conflict('email_in_use');
    await insertUser(
      tx,
      newUserRow({
        _id: id,
        name: input.name,
        email: input.email,
        password_hash: passwordHash,
        role: 'admin',
        status: 'active',
        created_at: now,
        last_active: now,
      }),
    );
    // as the command line and the environment write theirs: no admin stands behind it yet
    await recordAudit(tx, {
      actorId: null,
      action: 'admin.create',
      targetType: 'user',
      targetId: id,
      changes: { name: input.name, email: input.email, role: 'admin' },
      at: now,
    });
    await deps.setup.close(tx);
  });
  const user = (await findUserById(deps.db, id))!;
  return { user, token: (await startSession(deps, user, false, origin)).token };
}

/**
 * At `serve`'s start: opens a setup token when the database has no active admin, else ends any
 * token left open (an admin was made another way) and returns null.
 */
export async function openSetupIfNoAdmin(deps: AppDeps): Promise<string | null> {
  if ((await countActiveAdmins(deps.db)) > 0) {
    await deps.setup.close();
    return null;
  }
  return deps.setup.open();
}

/**
 * The log line with the setup link of a server listening at `origin` ("http://HOST:PORT"); a
 * wildcard address is shown as the loopback one.
 */
export function setupLinkLine(origin: string, token: string, shared = false): string {
  const url = new URL('/setup', origin);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  url.searchParams.set('token', token);
  const lasts = shared ? 'on any node, until an admin exists' : 'until the server stops';
  return `no admin account yet: create the first one at ${url.href} (the link works once, ${lasts})`;
}
