import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApp } from '../bootstrap';
import { readConfig } from '../config';
import { sharedDatabase } from '../testing/cluster';
import { testsOnPostgres } from '../testing/test-app';
import { startPeriodic } from './sweeps';

// Of nodes sharing a PostgreSQL database, one runs a scheduled pass at a time (an
// advisory lock; on SQLite, one server, the lock is nothing, so this runs on the PostgreSQL run).
describe.skipIf(!testsOnPostgres)('a scheduled pass on nodes sharing PostgreSQL', () => {
  it('runs on one node while the other skips its turn, and on the other once it is free', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-jobs-'));
    const database = await sharedDatabase();
    const config = readConfig({ DATA_DIR: dir, ...database.env });
    const nodes = [await openApp(config, { web: new Map() }), await openApp(config, { web: new Map() })];
    try {
      const ran: number[] = [];
      let finish = () => {};
      const held = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const pass = (node: number, wait?: Promise<void>) =>
        [
          'test-pass',
          async () => {
            ran.push(node);
            await wait;
          },
        ] as const;
      const first = startPeriodic(nodes[0].deps, () => {}, 60_000, [pass(0, held)]);
      await expect.poll(() => ran).toEqual([0]);
      // node 1's turn comes while node 0 is still running it: skipped
      await startPeriodic(nodes[1].deps, () => {}, 60_000, [pass(1)]).stop();
      expect(ran).toEqual([0]);
      finish();
      await first.stop();
      await startPeriodic(nodes[1].deps, () => {}, 60_000, [pass(1)]).stop();
      expect(ran).toEqual([0, 1]);
    } finally {
      for (const node of nodes) await node.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
