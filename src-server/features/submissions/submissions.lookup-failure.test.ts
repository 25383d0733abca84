import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseBusyError } from '../../db/database';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { onDisk, startedTask, submit } from './submission-test-helpers';

// The duplicate lookup runs while the proof's files are written: when it fails (the
// database busy past its timeout), the upload is refused and both files are removed at once, not
// left to the orphan clean-up. The lookup is the one thing replaced here, by a failing one.
const failing = vi.hoisted(() => ({ on: false }));
vi.mock('../fraud/signals', async (original) => {
  const real = await original<typeof import('../fraud/signals')>();
  return {
    ...real,
    findDuplicateProofs: (...args: Parameters<typeof real.findDuplicateProofs>) =>
      failing.on ? Promise.reject(new DatabaseBusyError()) : real.findDuplicateProofs(...args),
  };
});

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

describe('POST /api/submissions when the duplicate lookup fails', () => {
  it('answers 503, keeps no file and no row, and takes the same proof once the lookup works', async () => {
    const { user, token, taskId } = await startedTask(t, adminToken);
    const before = await onDisk(t);
    failing.on = true;
    try {
      const res = await submit(t, token, { task: taskId, file: pngFile(60, 40) });
      expect(res.status).toBe(503);
    } finally {
      failing.on = false;
    }
    expect(await onDisk(t)).toEqual(before);
    const rows = await t.deps.db
      .selectFrom('submissions')
      .select('_id')
      .where('user_id', '=', user._id)
      .execute();
    expect(rows).toEqual([]);
    const again = await submit(t, token, { task: taskId, file: pngFile(60, 40) });
    expect(again.status).toBe(201);
    expect((await onDisk(t)).proofs.length).toBe(before.proofs.length + 2);
  });
});
