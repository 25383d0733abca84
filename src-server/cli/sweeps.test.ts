import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openApp } from '../bootstrap';
import { readConfig } from '../config';
import { SWEEP_GRACE_MS } from '../features/tasks/task-expiry';
import { createTask } from '../features/tasks/task-test-helpers';
import { jobRunRecords } from '../observability/jobs';
import { openFileStore } from '../storage/file-store';
import { pngFile } from '../storage/image-fixtures';
import { sharedDatabase } from '../testing/cluster';
import { makeUser } from '../testing/factories';
import { createTestApp, sessionToken, type TestApp } from '../testing/test-app';
import {
  ORPHAN_GRACE_MS,
  orphanCleanupPass,
  startOrphanCleanup,
  startSessionCleanup,
  startSweeps,
} from './sweeps';

// Each scheduled pass runs under its job lock, so of nodes sharing a database one runs
// it and the others skip that turn. The lock does nothing on SQLite; here it is replaced by one
// that records the names asked for and can be "held by another node".
const asked: string[] = [];
const heldElsewhere = new Set<string>();
vi.mock('../db/locks', async (original) => {
  const actual = await original<typeof import('../db/locks')>();
  return {
    ...actual,
    withJobLock: vi.fn(async (_db: unknown, name: string, fn: () => Promise<unknown>) => {
      asked.push(name);
      return heldElsewhere.has(name) ? null : fn();
    }),
  };
});

const MINUTE = 60_000;
let now = Date.parse('2026-11-28T09:00:00.000Z');
let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());
beforeEach(() => {
  asked.length = 0;
  heldElsewhere.clear();
});

/** Lets the first round reach its `passes`-th lock (a stop ends a round between passes), then stops. */
async function round(periodic: { stop(): Promise<void> }, passes: number) {
  await vi.waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(passes));
  await periodic.stop();
}

/** A record started now on a 5-minute task, and its status. */
async function startedRecord() {
  const task = await createTask(t, adminToken, { timeLimitMinutes: 5 });
  const user = await makeUser(t.deps.db);
  const res = await t.call('POST', `/api/tasks/${task}/start`, { token: await t.tokenFor(user) });
  expect(res.status).toBe(201);
  return async () =>
    (
      await t.deps.db
        .selectFrom('user_tasks')
        .select('status')
        .where('user_id', '=', user._id)
        .executeTakeFirstOrThrow()
    ).status;
}

describe('the scheduled sweeps under their job locks', () => {
  it('run each pass under its own lock, and still do their work', async () => {
    const status = await startedRecord();
    now += 5 * MINUTE + SWEEP_GRACE_MS + 1;
    await round(
      startSweeps(t.deps, () => {}),
      2,
    );
    expect(asked).toEqual(['job:expiry', 'job:auto-approval']);
    expect(await status()).toBe('expired');
  });

  it('skip a pass another node is running, and run the others', async () => {
    const status = await startedRecord();
    now += 5 * MINUTE + SWEEP_GRACE_MS + 1;
    heldElsewhere.add('job:expiry');
    await round(
      startSweeps(t.deps, () => {}),
      2,
    );
    expect(asked).toEqual(['job:expiry', 'job:auto-approval']);
    expect(await status()).toBe('in_progress');
    heldElsewhere.clear();
    await round(
      startSweeps(t.deps, () => {}),
      4,
    );
    expect(await status()).toBe('expired');
  });
});

describe('the periodic orphan clean-up of nodes sharing the files', () => {
  it('removes proofs and images no row names only once they are over an hour old', async () => {
    const store = t.deps.files;
    const proof = await store.save('proofs', pngFile(3, 3), 'image/png');
    const image = await store.save('images', pngFile(4, 4), 'image/png');
    const lines: string[] = [];
    now = Date.now() + ORPHAN_GRACE_MS - MINUTE;
    await orphanCleanupPass(t.deps, (line) => lines.push(line));
    expect(await store.list('proofs')).toContain(proof);
    expect(await store.list('images')).toContain(image);
    now = Date.now() + ORPHAN_GRACE_MS + MINUTE;
    await round(
      startOrphanCleanup(t.deps, (line) => lines.push(line)),
      1,
    );
    expect(asked).toEqual(['job:orphan-cleanup']);
    expect(await store.list('proofs')).not.toContain(proof);
    expect(await store.list('images')).not.toContain(image);
    expect(lines).toEqual([
      'removed 1 proof file(s) left without a submission for over an hour',
      'removed 1 image(s) left without a user or setting for over an hour',
    ]);
  });
});

describe('the expired-session clean-up', () => {
  it('removes the rows of sessions past their end, under its lock, recorded as a job run', async () => {
    const user = await makeUser(t.deps.db);
    const sessionsOf = async () =>
      (
        await t.deps.db
          .selectFrom('sessions')
          .select('expires_at')
          .where('user_id', '=', user._id)
          .orderBy('expires_at')
          .execute()
      ).map((r) => r.expires_at);
    // a day-long session and a remembered one (30 days)
    await sessionToken(t.deps, user, false);
    await sessionToken(t.deps, user, true);
    expect(await sessionsOf()).toHaveLength(2);
    const lines: string[] = [];
    // nothing is past its end yet: both rows stay
    await round(
      startSessionCleanup(t.deps, (line) => lines.push(line)),
      1,
    );
    await vi.waitFor(() => expect(jobRunRecords().some((r) => r.name === 'session-cleanup')).toBe(true));
    expect(await sessionsOf()).toHaveLength(2);
    now += 2 * 24 * 60 * MINUTE;
    asked.length = 0;
    await round(
      startSessionCleanup(t.deps, (line) => lines.push(line)),
      1,
    );
    expect(asked).toEqual(['job:session-cleanup']);
    const left = await sessionsOf();
    expect(left).toHaveLength(1);
    expect(Date.parse(left[0] as string)).toBeGreaterThan(now);
    expect(lines.some((l) => /^removed \d+ expired session\(s\)$/.test(l))).toBe(true);
    const record = jobRunRecords().find((r) => r.name === 'session-cleanup');
    expect(record?.lastOk).toBe(true);
    expect(record?.runs).toBeGreaterThanOrEqual(2);
    expect(record?.counts.removed).toBeGreaterThanOrEqual(1);
  });
});

describe('a cluster node starting', () => {
  it('clears its temp folder but removes no file: another node may be uploading it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-node-start-'));
    const database = await sharedDatabase();
    try {
      const config = readConfig({ DATA_DIR: dir, ...database.env });
      const first = await openApp(config, { web: new Map() });
      await first.close();
      const store = openFileStore(config);
      const proof = await store.save('proofs', pngFile(3, 3), 'image/png');
      const image = await store.save('images', pngFile(4, 4), 'image/png');
      writeFileSync(join(dir, 'tmp', 'left.part'), 'a crashed upload of this node');
      const node = await openApp(config, { web: new Map(), clearTemp: true, server: true });
      await node.close();
      expect(existsSync(join(dir, 'tmp', 'left.part'))).toBe(false);
      expect(await store.list('proofs')).toEqual([proof]);
      expect(await store.list('images')).toEqual([image]);
      // the same start of one server removes them (features/submissions/orphaned-proofs.test.ts)
      const single = await openApp(readConfig({ DATA_DIR: dir }), { web: new Map(), clearTemp: true });
      await single.close();
      expect(await store.list('proofs')).toEqual([]);
      expect(await store.list('images')).toEqual([]);
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
