// Backup to restore as an operator meets it, on the server bundle: a folder made over HTTP with
// every kind of stored file, backed up by the CLI and by the schedule, restored into a fresh
// folder and over the old one, `doctor` clean and the same sign-ins, balances and bytes served.
// The single binary runs the same journey in build/binary.check.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bundleOperator } from '../testing/bundle-operator';
import { backupToRestore } from './backup-journey';

let scratch: string;
beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-journey-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const bundle = bundleOperator();

describe('backup to restore, as an operator meets it', () => {
  // under a minute on a quiet machine: some fifteen processes start in turn
  it('restores every kind of stored file, from a backup by hand and by the schedule, fresh and over the folder', async () => {
    await backupToRestore(bundle, scratch);
  }, 300_000);
});
