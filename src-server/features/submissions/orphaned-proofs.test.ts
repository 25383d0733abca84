import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp } from '../../bootstrap';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import { createTask } from '../tasks/task-test-helpers';
import { findOrphanedProofs, removeOrphanedProofs } from './orphaned-proofs';
import { submit } from './submission-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.dispose());

describe('orphaned proofs', () => {
  it('finds and removes only old proof files that no submission names', async () => {
    const admin = await makeUser(t.deps.db, { role: 'admin' });
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const taskId = await createTask(t, await t.tokenFor(admin));
    await t.call('POST', `/api/tasks/${taskId}/start`, { token });
    expect((await submit(t, token, { task: taskId, file: pngFile() })).status).toBe(201);
    const store = t.deps.files;
    const orphan = await store.save('proofs', pngFile(), 'image/png');
    const later = new Date(Date.now() + 2 * 3_600_000);

    expect(await findOrphanedProofs(t.deps.db, t.deps.files, new Date())).toEqual([]);
    expect(await findOrphanedProofs(t.deps.db, t.deps.files, later)).toEqual([orphan]);
    expect(await removeOrphanedProofs(t.deps.db, t.deps.files, later)).toBe(1);
    // the proof and its thumbnail stay
    expect(await store.list('proofs')).toHaveLength(2);
    expect((await store.list('proofs')).filter((n) => n.endsWith('.webp'))).toHaveLength(1);
    expect(await store.read('proofs', orphan)).toBeNull();
  });

  // one server's start; nodes of a cluster (the PostgreSQL run) never remove files at start but
  // every hour past a grace (cli/sweeps.test.ts)
  it.skipIf(testsOnPostgres)(
    'are removed when the lock holder starts (a SIGKILL between the file and its row), not by others',
    async () => {
      const admin = await makeUser(t.deps.db, { role: 'admin' });
      const user = await makeUser(t.deps.db);
      const token = await t.tokenFor(user);
      const taskId = await createTask(t, await t.tokenFor(admin));
      await t.call('POST', `/api/tasks/${taskId}/start`, { token });
      expect((await submit(t, token, { task: taskId, file: pngFile() })).status).toBe(201);
      const store = t.deps.files;
      const named = await store.list('proofs');
      // what a kill after the proof's durable write and before its row's commit leaves
      const orphan = await store.save('proofs', pngFile(9, 9), 'image/png');

      const other = await openApp(t.deps.config, { web: new Map() });
      await other.close();
      expect(await store.list('proofs')).toContain(orphan);

      const server = await openApp(t.deps.config, { web: new Map(), clearTemp: true });
      await server.close();
      expect((await store.list('proofs')).sort()).toEqual([...named].sort());
      expect(await store.read('proofs', orphan)).toBeNull();
    },
  );
});
