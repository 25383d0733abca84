import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { openApp } from '../bootstrap';
import { runDoctor } from '../cli/doctor';
import { readConfig } from '../config';
import { latestMigrationName } from '../db/migrate';
import type { UserRow } from '../features/users/users.repository';
import { makeUser } from '../testing/factories';
import { listen } from '../testing/money-factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../testing/test-app';
import { createBackup } from './backup';
import { folderDigest, type Seeded, seed } from './backup-test-helpers';
import { DataFolder } from './data-folder';
import { LocalFileStore } from './file-store';
import { restoreBackup } from './restore';
import { parseStoredFilePath } from './stored-names';

/**
 * A backup and restore round trip against the real HTTP server: 20 clients approve submissions and
 * request withdrawals while a backup runs; the archive restored into a fresh folder serves a
 * server that passes the doctor and holds every write acknowledged before the backup began.
 */
const CLIENTS = 20;
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** `node dist/server/main.cjs backup FILE --data DIR`: resolves with its exit code and output. */
function backupCommand(file: string, dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [
      join(root, 'dist/server/main.cjs'),
      'backup',
      file,
      '--data',
      dataDir,
    ]);
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('close', (code) => resolve({ code, output }));
  });
}
const ROUNDS = 12;

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let admin: UserRow;
let adminToken: string;
let seeded: Seeded;
let scratch: string;
beforeAll(async () => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], { cwd: root });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  t = await createTestApp();
  server = await listen(t.app);
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
  seeded = await seed(t.deps.db, new DataFolder(t.dataDir), CLIENTS, ROUNDS);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-backup-'));
});
afterAll(async () => {
  await server.close();
  await t.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

interface Ack {
  kind: 'approval' | 'withdrawal';
  id: string;
  /** performance.now() when the reply arrived. */
  at: number;
  ms: number;
}

async function send(method: string, path: string, token: string, body: unknown) {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: { _id?: string } };
  return { status: res.status, json, ms: performance.now() - started, at: performance.now() };
}

/** One client: approve its user's next submission, then request a withdrawal for that user; repeat. */
async function client(i: number, acks: Ack[]): Promise<void> {
  const token = await t.tokenFor(seeded.users[i]);
  for (let k = 0; k < ROUNDS; k++) {
    const id = seeded.submissions[i][k];
    const approved = await send('PUT', `/api/submissions/${id}/review`, adminToken, {
      status: 'approved',
      feedback: 'Onaylandı',
    });
    expect(approved.status).toBe(200);
    acks.push({ kind: 'approval', id, at: approved.at, ms: approved.ms });
    const withdrawn = await send('POST', '/api/withdraws', token, {
      amount: 30,
      paymentMethod: 'papara',
      accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
    });
    expect(withdrawn.status).toBe(201);
    acks.push({ kind: 'withdrawal', id: withdrawn.json.data?._id ?? '', at: withdrawn.at, ms: withdrawn.ms });
  }
}

// the SQLite file's backup; on PostgreSQL the command refuses (cli/index.test.ts)
describe.skipIf(testsOnPostgres)('backup and restore under load', () => {
  it('restores every write acknowledged before the backup began, and the restored folder passes doctor', async () => {
    const acks: Ack[] = [];
    // signed in before the backup: its session is in the archive
    const token = await t.tokenFor(seeded.users[0]);
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i, acks)));
    // let the clients get going, then back up while they keep writing
    while (acks.length < (CLIENTS * ROUNDS * 2) / 3) await new Promise((r) => setTimeout(r, 5));
    const began = performance.now();
    const before = acks.filter((a) => a.at <= began);
    const archive = join(scratch, 'under-load.tar.gz');
    // the backup command in its own process, as an operator (or the schedule) runs it
    const result = await backupCommand(archive, t.dataDir);
    const ended = performance.now();
    await load;

    const during = acks.filter((a) => a.at > began && a.at <= ended);
    const after = acks.filter((a) => a.at > ended);
    // the writers went on while the backup ran, and none waited for it long
    expect(during.length + after.length).toBeGreaterThan(0);
    const slowest = Math.max(0, ...during.map((a) => a.ms));
    const slowestBefore = Math.max(0, ...before.map((a) => a.ms));
    // in WAL mode the snapshot blocks no writer: writes went on during the backup, no slower than
    // the load itself makes them (the bound follows the machine's load, shared with other tests)
    expect(during.length).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(Math.max(2_000, 3 * slowestBefore));
    console.log(
      `backup under load: ${before.length} writes before, ${during.length} during, ${after.length} after; ` +
        `backup command ${(ended - began).toFixed(0)} ms (${/snapshot \d+ ms/.exec(result.output)?.[0]}); ` +
        `slowest write before ${slowestBefore.toFixed(0)} ms, during ${slowest.toFixed(0)} ms`,
    );
    expect(result.code).toBe(0);
    expect(result.output).toContain(
      // each proof and its thumbnail
      `${2 * CLIENTS * ROUNDS} proof(s), ${CLIENTS + 1} image(s), migration ${latestMigrationName()}`,
    );
    expect(result.output).not.toContain('warning');

    // the live server is still sound after all that
    expect(await runDoctor(new DataFolder(t.dataDir))).toEqual([]);

    const fresh = join(scratch, 'restored');
    const restored = await restoreBackup(new DataFolder(fresh), archive);
    expect(restored.replaced).toBe(false);
    expect(await runDoctor(new DataFolder(fresh))).toEqual([]);

    const opened = await openApp(readConfig({ DATA_DIR: fresh }), { web: new Map() });
    const restoredServer = await listen(createApp(opened.deps));
    try {
      const db = opened.deps.db;
      for (const ack of before) {
        if (ack.kind === 'approval') {
          const row = await db
            .selectFrom('submissions')
            .select('status')
            .where('_id', '=', ack.id)
            .executeTakeFirst();
          expect(row?.status, `approval ${ack.id}`).toBe('approved');
        } else {
          const row = await db
            .selectFrom('withdrawals')
            .select('status')
            .where('_id', '=', ack.id)
            .executeTakeFirst();
          expect(row?.status, `withdrawal ${ack.id}`).toBe('pending');
        }
      }
      // the secret and the sessions came along: a token of the old server works, and so do stored files
      const me = await fetch(`${restoredServer.url}/api/users/me`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
      const photo = ((await me.json()) as { data: { profileImage: string } }).data.profileImage;
      const image = await fetch(`${restoredServer.url}${photo}`);
      expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
      const withdrawals = await fetch(`${restoredServer.url}/api/withdraws`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(withdrawals.status).toBe(200);
    } finally {
      await restoredServer.close();
      await opened.close();
    }
  });

  it('writes a manifest first, then only the database, the secret and named files', async () => {
    const archive = join(scratch, 'plain.tar');
    await createBackup(new DataFolder(t.dataDir), archive);
    const paths: string[] = [];
    await tar.list({ file: archive, onReadEntry: (e) => paths.push(e.path) });
    expect(paths[0]).toBe('manifest.json');
    expect(paths[1]).toBe('taskreward.db');
    const files = paths.slice(2).filter((p) => p !== 'secret.key');
    expect(files.map((p) => parseStoredFilePath(p)?.kind)).not.toContain(undefined);
    // the proofs, their WebP thumbnails, the photos and the logo
    expect(new Set(files.map((p) => p.slice(p.lastIndexOf('.'))))).toEqual(new Set(['.png', '.webp']));
    expect(paths).toContain('secret.key');
    // the live folder's temp area holds nothing after a backup
    expect(Object.keys(folderDigest(new DataFolder(t.dataDir).tmpDir))).toEqual([]);
  });

  it('leaves out stored files no row names', async () => {
    const folder = new DataFolder(t.dataDir);
    const orphan = await new LocalFileStore(folder).save('proofs', Buffer.from('nobody'), 'image/png');
    const archive = join(scratch, 'orphans.tar');
    const { manifest } = await createBackup(folder, archive);
    expect(manifest.entries.map((e) => e.path)).not.toContain(`files/proofs/${orphan}`);
    await new LocalFileStore(folder).remove('proofs', orphan);
  });
});
