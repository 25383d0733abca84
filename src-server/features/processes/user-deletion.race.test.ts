import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../cli/doctor';
import { sharedDatabase } from '../../testing/cluster';
import { makeUser } from '../../testing/factories';
import { burst, fund } from '../../testing/money-factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { DELETED_USER_NAME } from './user-deletion';

// A deletion with forfeit racing the writes that change an account: an admin's balance edit, and
// the user's own profile save. On PostgreSQL two app nodes share one database (the deletion on
// one, the edits on the other); on SQLite one app. Whatever the order, a deleted account keeps
// no balance and nothing is written about it after its deletion.
const ROUNDS = 20;

let nodes: TestApp[];
let drop: () => Promise<void>;
let superToken: string;
beforeAll(async () => {
  if (testsOnPostgres) {
    const database = await sharedDatabase();
    drop = database.drop;
    nodes = [await createTestApp({ env: database.env }), await createTestApp({ env: database.env })];
  } else {
    const only = await createTestApp();
    nodes = [only, only];
    drop = async () => {};
  }
  const superAdmin = await makeUser(nodes[0].deps.db, { role: 'admin', name: 'Super' });
  superToken = await nodes[0].tokenFor(superAdmin);
}, 60_000);
afterAll(async () => {
  for (const node of new Set(nodes)) await node.dispose();
  await drop();
});

const db = () => nodes[0].deps.db;

/** The user's ledger and audit rows in the order they were written. */
async function history(userId: string) {
  const ledger = await db()
    .selectFrom('ledger')
    .select(['id', 'kind', 'amount'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const audit = await db()
    .selectFrom('audit_log')
    .select(['id', 'action'])
    .where('target_type', '=', 'user')
    .where('target_id', '=', userId)
    .orderBy('id')
    .execute();
  return { ledger, audit };
}

describe(`deleting a user with forfeit while their account is being changed (${testsOnPostgres ? 'PostgreSQL, two nodes' : 'SQLite'})`, () => {
  it(`leaves nothing on the deleted account, ${ROUNDS} rounds released at once`, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const user: UserRow = await makeUser(db(), { name: `Worker ${round}`, phone: '05551234567' });
      await fund(db(), user._id, 5000);
      const userToken = await nodes[1].tokenFor(user);
      const [deletion, edit, profile] = await burst(3, (i) => {
        if (i === 0)
          return nodes[0].call('DELETE', `/api/admin/users/${user._id}?forfeit=true`, { token: superToken });
        if (i === 1)
          return nodes[1].call('PUT', `/api/admin/users/${user._id}`, {
            token: superToken,
            body: { name: user.name, email: user.email, balance: 123.45 },
          });
        return nodes[1].call('PUT', '/api/users/me', {
          token: userToken,
          body: { name: 'Back again', phone: '05559876543', bio: 'still here' },
        });
      });
      expect(deletion.status).toBe(200);
      // the edits came first (200) or found the account gone: 404, or the user's token refused
      expect([200, 404]).toContain(edit.status);
      if (edit.status === 404) expect(edit.body.error.code).toBe('user_not_found');
      expect([200, 401, 404]).toContain(profile.status);
      outcomes.push(`${edit.status}/${profile.status}`);

      const row = await db()
        .selectFrom('users')
        .selectAll()
        .where('_id', '=', user._id)
        .executeTakeFirstOrThrow();
      expect(row.deleted_at).not.toBeNull();
      expect(Number(row.balance)).toBe(0);
      expect({ name: row.name, phone: row.phone, bio: row.bio }).toEqual({
        name: DELETED_USER_NAME,
        phone: null,
        bio: null,
      });
      const { ledger, audit } = await history(user._id);
      // the forfeit is the user's last money row and the deletion the last audit row
      expect(ledger.at(-1)?.kind).toBe('forfeit');
      expect(ledger.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(0);
      expect(audit.at(-1)?.action).toBe('user.delete');
      // the reply tells the truth: an edit that answered 404 wrote nothing at all (the funding is
      // the one adjustment), one that answered 200 committed its adjustment before the deletion
      const adjustments = ledger.filter((r) => r.kind === 'adjustment').map((r) => Number(r.amount));
      expect(adjustments).toEqual(edit.status === 404 ? [5000] : [5000, 12345 - 5000]);
      if (edit.status === 200) expect(edit.body.data.balance).toBe(123.45);
    }
    // the doctor's view of the whole database (every node writes to it)
    expect(await runDoctor(nodes[0].folder, { databaseUrl: nodes[0].deps.config.databaseUrl })).toEqual([]);
    console.log(`edit/profile replies over ${ROUNDS} rounds: ${outcomes.join(' ')}`);
  }, 180_000);
});
