// The move to PostgreSQL as an operator meets it, on the server bundle: a folder made over HTTP
// with every kind of row and file, moved by the CLI into a fresh database and an S3 bucket, then
// served by two app nodes that show what the folder's server showed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { emptyTestDatabase, testDatabaseUrl } from '../../db/test-databases';
import { bundleOperator } from '../../testing/bundle-operator';
import { startS3Server } from '../../testing/s3-server';
import { testsOnPostgres } from '../../testing/test-app';
import { moveJourney } from './move-journey';

let scratch: string;
beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-move-journey-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const bundle = bundleOperator();

describe.skipIf(!testsOnPostgres)('moving a site to PostgreSQL and a bucket', () => {
  it('moves every kind of row and file; two nodes on the target serve the same sign-ins, balances, lists, images and admin screens', async () => {
    const database = await emptyTestDatabase(testDatabaseUrl() as string, 'taskreward_move');
    const s3 = await startS3Server();
    try {
      await moveJourney(bundle, scratch, { databaseUrl: database.url, storeEnv: s3.env });
    } finally {
      await s3.close();
      await database.drop();
    }
  }, 300_000);
});
