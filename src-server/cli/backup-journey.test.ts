// Backup to restore as an operator meets it, on the server bundle: a folder made over HTTP with
// every kind of stored file, backed up by the CLI and by the schedule, restored into a fresh
// folder and over the old one, `doctor` clean and the same sign-ins, balances and bytes served.
// The single binary runs the same journey in build/binary.check.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { SERVER_ENTRY, startServerProcess } from '../../faults/server';
import { backupToRestore, type Operator } from './backup-journey';

let scratch: string;
beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-journey-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// on SQLite: the backup commands refuse a PostgreSQL database by design
const env = { ...process.env, DATABASE_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' };

const bundle: Operator = {
  cli(args, extra = {}) {
    const run = spawnSync(process.execPath, [SERVER_ENTRY, ...args], {
      env: { ...env, ...extra },
      encoding: 'utf8',
    });
    return { code: run.status, out: `${run.stdout}${run.stderr}` };
  },
  async serve(data, extra = {}) {
    const server = await startServerProcess({
      dataDir: data,
      env: { ...env, ...extra } as Record<string, string>,
    });
    return { url: server.url, output: server.log, stop: server.stop };
  },
};

describe('backup to restore, as an operator meets it', () => {
  // under a minute on a quiet machine: some fifteen processes start in turn
  it('restores every kind of stored file, from a backup by hand and by the schedule, fresh and over the folder', async () => {
    await backupToRestore(bundle, scratch);
  }, 300_000);
});
