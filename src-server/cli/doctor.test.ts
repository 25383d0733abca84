import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openApp } from '../bootstrap';
import { readConfig } from '../config';
import { publicImageUrl } from '../features/files/file-urls';
import { seed } from '../storage/backup-test-helpers';
import { DataFolder } from '../storage/data-folder';
import { LocalFileStore } from '../storage/file-store';
import { makeUser } from '../testing/factories';
import { createTestApp } from '../testing/test-app';
import { runDoctor } from './doctor';

let root: string;
let folder: DataFolder;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'taskreward-doctor-'));
  folder = new DataFolder(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Opens the folder, lets `change` break something, closes it again. */
async function withApp(change: (o: Awaited<ReturnType<typeof openApp>>) => Promise<void>) {
  const opened = await openApp(readConfig({ DATA_DIR: root }), { web: new Map() });
  try {
    await change(opened);
  } finally {
    await opened.close();
  }
}

describe('runDoctor', () => {
  it('finds nothing wrong with a folder the features left', async () => {
    await withApp(async (o) => {
      await seed(o.deps.db, folder, 2, 2);
    });
    expect(await runDoctor(folder)).toEqual([]);
  });

  it('says when there is no database', async () => {
    expect(await runDoctor(folder)).toEqual([
      { check: 'database', message: expect.stringContaining('no database') },
    ]);
  });

  it('reports a stored file no row names', async () => {
    let name = '';
    await withApp(async () => {
      name = await new LocalFileStore(folder).save('proofs', Buffer.from('x'), 'image/png');
    });
    expect(await runDoctor(folder)).toEqual([
      { check: 'orphan_file', message: `stored file proofs/${name} is named by no row` },
    ]);
  });

  it('reports rows that name files that are not stored: a proof, a profile photo, the logo', async () => {
    const ghost = `${'b'.repeat(32)}.png`;
    let userId = '';
    await withApp(async (o) => {
      const { submissions } = await seed(o.deps.db, folder, 1, 1);
      await o.deps.db
        .updateTable('submissions')
        .set({ proof_file: ghost })
        .where('_id', '=', submissions[0][0])
        .execute();
      userId = (await makeUser(o.deps.db, { profile_image: publicImageUrl(`${'c'.repeat(32)}.jpg`) }))._id;
      await o.deps.db
        .updateTable('settings')
        .set({
          value: JSON.stringify({
            favicon: publicImageUrl(`${'d'.repeat(32)}.ico`),
            logo: 'https://cdn.example/logo.png',
          }),
        })
        .where('key', '=', 'site')
        .execute();
    });
    const findings = await runDoctor(folder);
    const missing = findings.filter((f) => f.check === 'missing_file').map((f) => f.message);
    expect(missing).toEqual([
      expect.stringMatching(new RegExp(`^submission \\w+ names proofs/${ghost}, which is not stored$`)),
      `user ${userId} (profile photo) names images/${'c'.repeat(32)}.jpg, which is not stored`,
      `site settings (favicon) names images/${'d'.repeat(32)}.ico, which is not stored`,
    ]);
    // the replaced proof and the old logo are now orphans
    expect(findings.filter((f) => f.check === 'orphan_file')).toHaveLength(2);
  });

  it('reports broken money rules', async () => {
    await withApp(async (o) => {
      await makeUser(o.deps.db, { balance: 500 });
    });
    const findings = await runDoctor(folder);
    expect(findings.map((f) => f.check)).toEqual(['money']);
    expect(findings[0].message).toMatch(/balance .* but the ledger sums to/);
  });

  it('reports a dashboard counter that no longer matches its rows', async () => {
    await withApp(async (o) => {
      await makeUser(o.deps.db, { created_at: '2026-02-03T04:05:06.000Z' });
      // a counter changed behind the triggers' back
      await o.deps.db
        .updateTable('stat_counters')
        .set((eb) => ({ value: eb('value', '+', 2) }))
        .where('metric', '=', 'users')
        .where('bucket', '=', '2026-02-03T04')
        .execute();
    });
    const findings = await runDoctor(folder);
    expect(findings).toEqual([
      {
        check: 'stats',
        message: 'the dashboard counter "users" for the hour 2026-02-03T04:00 UTC is 3 but the rows count 1',
      },
    ]);
  });

  it('reports a damaged database file and stops there', async () => {
    await withApp(async (o) => {
      await seed(o.deps.db, folder, 3, 3);
    });
    // scribble over the header of every page after the first (b-tree pages of tables and indexes)
    const fd = openSync(folder.dbFile, 'r+');
    const pages = Math.floor(statSync(folder.dbFile).size / 4096);
    for (let page = 1; page < pages; page++) writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, page * 4096);
    closeSync(fd);
    const findings = await runDoctor(folder);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.check === 'integrity')).toBe(true);
  });
});

// the same checks on the test app's engine: PostgreSQL when the run has one
describe("runDoctor on the test run's engine", () => {
  it('passes a clean database, then finds a broken balance and a changed counter', async () => {
    const t = await createTestApp();
    try {
      const doctor = () => runDoctor(new DataFolder(t.dataDir), { databaseUrl: t.deps.config.databaseUrl });
      await seed(t.deps.db, new DataFolder(t.dataDir), 2, 2);
      expect(await doctor()).toEqual([]);
      await makeUser(t.deps.db, { balance: 500, created_at: '2026-02-03T04:05:06.000Z' });
      await t.deps.db
        .updateTable('stat_counters')
        .set((eb) => ({ value: eb('value', '+', 2) }))
        .where('metric', '=', 'users')
        .where('bucket', '=', '2026-02-03T04')
        .execute();
      const findings = await doctor();
      expect(findings.map((f) => f.check).sort()).toEqual(['money', 'stats']);
      expect(findings.find((f) => f.check === 'stats')?.message).toBe(
        'the dashboard counter "users" for the hour 2026-02-03T04:00 UTC is 3 but the rows count 1',
      );
    } finally {
      await t.dispose();
    }
  });
});
