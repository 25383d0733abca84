import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plantFailure, plantTrigger } from '../../db/test-triggers';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import type { UserRow } from './users.repository';

// the app's clock, moved by the tests; `step` advances it on every read when set
let now = Date.parse('2026-03-10T12:00:00.000Z');
let step = 0;
const clock = () => {
  const d = new Date(now);
  now += step;
  return d;
};

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = await makeUser(t.deps.db, { role: 'admin', name: 'Admin' });
  adminToken = await t.tokenFor(admin);
  // every write of last_active is logged, so a test can count them
  await sql`CREATE TABLE last_active_log (user_id TEXT, value TEXT)`.execute(t.deps.db);
  await plantTrigger(t.deps.db, {
    name: 'last_active_written',
    on: 'AFTER UPDATE OF last_active ON users',
    sqlite: 'INSERT INTO last_active_log VALUES (NEW._id, NEW.last_active)',
    postgres: 'INSERT INTO last_active_log VALUES (NEW._id, NEW.last_active)',
  });
});
afterAll(async () => {
  await t.dispose();
});
beforeEach(() => {
  step = 0;
});

const iso = (ms: number) => new Date(ms).toISOString();
const stored = (id: string) =>
  t.deps.db
    .selectFrom('users')
    .select(['last_active', 'updated_at'])
    .where('_id', '=', id)
    .executeTakeFirstOrThrow();
async function writes(id: string): Promise<string[]> {
  const { rows } = await sql<{
    value: string;
  }>`SELECT value FROM last_active_log WHERE user_id = ${id} ORDER BY value`.execute(t.deps.db);
  return rows.map((r) => r.value);
}
// heartbeats wait in memory for up to a second (features/users/activity.ts): a read of the
// stored columns writes the waiting ones first
const written = () => t.deps.activity.flush();
async function signedIn() {
  const user = await makeUser(t.deps.db, { name: 'Worker' });
  return { user, token: await t.tokenFor(user) };
}

describe('lastActive follows the signed-in user', () => {
  it('is set by a request, and shown in /api/users/me and to admins', async () => {
    const { user, token } = await signedIn();
    expect((await stored(user._id)).last_active).toBeNull();
    const start = now;

    const me = await t.call('GET', '/api/users/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.data.lastActive).toBe(iso(start));
    // not written yet: it waits for the second's other heartbeats
    expect((await stored(user._id)).last_active).toBeNull();
    await written();
    expect((await stored(user._id)).last_active).toBe(iso(start));

    const detail = await t.call('GET', `/api/admin/users/${user._id}`, { token: adminToken });
    expect(detail.status).toBe(200);
    expect(detail.body.data.lastActive).toBe(iso(start));
    expect(await writes(user._id)).toEqual([iso(start)]);
  });

  it('is written at most once a minute: not again 30 s later, again 61 s later', async () => {
    const { user, token } = await signedIn();
    const start = now;
    await t.call('GET', '/api/users/me', { token });
    await written();
    const first = await stored(user._id);
    expect(first.last_active).toBe(iso(start));

    now = start + 30_000;
    const later = await t.call('GET', '/api/users/me', { token });
    expect(later.body.data.lastActive).toBe(iso(start));
    await written();
    expect(await stored(user._id)).toEqual(first);
    expect(await writes(user._id)).toEqual([iso(start)]);

    now = start + 61_000;
    const again = await t.call('GET', '/api/tasks', { token });
    expect(again.status).toBe(200);
    await written();
    expect((await stored(user._id)).last_active).toBe(iso(start + 61_000));
    expect(await writes(user._id)).toEqual([iso(start), iso(start + 61_000)]);
  });

  it('leaves updated_at alone', async () => {
    const { user, token } = await signedIn();
    const before = await stored(user._id);
    now += 120_000;
    await t.call('GET', '/api/users/me', { token });
    await written();
    const after = await stored(user._id);
    expect(after.last_active).toBe(iso(now));
    expect(after.updated_at).toBe(before.updated_at);
  });

  it("writes nothing for a visitor's request", async () => {
    const before = await sql<{ n: number }>`SELECT count(*) AS n FROM last_active_log`.execute(t.deps.db);
    const res = await t.call('GET', '/api/tasks');
    expect(res.status).toBe(200);
    const after = await sql<{ n: number }>`SELECT count(*) AS n FROM last_active_log`.execute(t.deps.db);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('writes nothing for a banned user, whose requests are refused', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'spam' });
    const res = await t.call('GET', '/api/users/me', { token: await t.tokenFor(user) });
    expect(res.status).toBe(403);
    await written();
    expect(await writes(user._id)).toEqual([]);
    expect((await stored(user._id)).last_active).toBeNull();
  });

  it('writes once for many parallel requests of one user within a minute', async () => {
    const { user, token } = await signedIn();
    step = 1000; // every request reads a later time, so each write would leave a different value
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.call('GET', i % 2 ? '/api/users/me' : '/api/tasks', { token })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    // every reply shows the one time that is written
    await written();
    const logged = await writes(user._id);
    expect(logged).toHaveLength(1);
    expect((await stored(user._id)).last_active).toBe(logged[0]);
    expect(new Set(replies.filter((_, i) => i % 2).map((r) => r.body.data.lastActive))).toEqual(
      new Set([logged[0]]),
    );
  });

  it('never fails the request when the write fails', async () => {
    const { user, token } = await signedIn();
    const drop = await plantFailure(
      t.deps.db,
      'last_active_fails',
      'BEFORE UPDATE OF last_active ON users',
      'disk on fire',
    );
    try {
      const res = await t.call('GET', '/api/users/me', { token });
      expect(res.status).toBe(200);
      // the write fails later, in the second's batch, which gives up without throwing
      await written();
      expect((await stored(user._id)).last_active).toBeNull();
    } finally {
      await drop();
    }
    // given up, not forgotten: the user's next request queues it again
    await t.call('GET', '/api/users/me', { token });
    await written();
    expect((await stored(user._id)).last_active).toBe(iso(now));
  });

  it('writes the waiting heartbeats by itself within its interval (a second, five on PostgreSQL), several users in one go', async () => {
    const a = await signedIn();
    const b = await signedIn();
    now += 120_000;
    await Promise.all([a, b].map(({ token }) => t.call('GET', '/api/tasks', { token })));
    const waitedFrom = Date.now();
    while ((await stored(b.user._id)).last_active === null) {
      expect(Date.now() - waitedFrom).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await stored(a.user._id)).last_active).toBe(iso(now));
    expect((await stored(b.user._id)).last_active).toBe(iso(now));
  });

  it.runIf(testsOnPostgres)(
    'on PostgreSQL writes a second of heartbeats in one transaction per table',
    async () => {
      // each commit moves the snapshot the remembered reads are stamped with: one per row would
      // keep them from ever being used while many users are signed in
      await sql`CREATE TABLE heartbeat_xact (user_id TEXT, xact BIGINT)`.execute(t.deps.db);
      const drop = await plantTrigger(t.deps.db, {
        name: 'heartbeat_xact_logged',
        on: 'AFTER UPDATE OF last_active ON users',
        sqlite: 'SELECT 1',
        postgres: 'INSERT INTO heartbeat_xact VALUES (NEW._id, txid_current())',
      });
      const many = await Promise.all(Array.from({ length: 12 }, () => signedIn()));
      now += 120_000;
      await Promise.all(many.map(({ token }) => t.call('GET', '/api/tasks', { token })));
      await written();
      const { rows } = await sql<{ user_id: string; xact: string }>`
      SELECT user_id, xact FROM heartbeat_xact`.execute(t.deps.db);
      expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set(many.map((m) => m.user._id)));
      expect(new Set(rows.map((r) => String(r.xact))).size).toBe(1);
      for (const { user } of many) expect((await stored(user._id)).last_active).toBe(iso(now));
      await drop();
    },
  );

  it.runIf(testsOnPostgres)(
    'on PostgreSQL skips a row a money move holds instead of waiting, and writes it on a later request',
    async () => {
      const held = await signedIn();
      const free = await signedIn();
      now += 120_000;
      let release = () => {};
      const releasing = new Promise<void>((r) => {
        release = r;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      // another transaction holds the account's row, as a payout's does until its commit
      const holder = t.deps.db.transaction().execute(async (trx) => {
        await sql`UPDATE users SET balance = balance WHERE _id = ${held.user._id}`.execute(trx);
        locked();
        await releasing;
      });
      try {
        await isLocked;
        await Promise.all([held, free].map(({ token }) => t.call('GET', '/api/users/me', { token })));
        const started = Date.now();
        await written();
        // not the lock timeout (5 s): the batch did not wait for the row
        expect(Date.now() - started).toBeLessThan(2_000);
        expect((await stored(free.user._id)).last_active).toBe(iso(now));
      } finally {
        release();
        await holder;
      }
      expect((await stored(held.user._id)).last_active).toBeNull();
      // not forgotten: the user's next request finds the row still due and queues it again
      now += 5_000;
      await t.call('GET', '/api/users/me', { token: held.token });
      await written();
      expect((await stored(held.user._id)).last_active).toBe(iso(now));
    },
  );

  it("writes what is waiting when the app closes (the server's stop)", async () => {
    const { user, token } = await signedIn();
    now += 120_000;
    await t.call('GET', '/api/users/me', { token });
    expect((await stored(user._id)).last_active).toBeNull();
    await t.deps.activity.close();
    expect((await stored(user._id)).last_active).toBe(iso(now));
  });
});
