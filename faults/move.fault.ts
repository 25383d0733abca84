// A move to PostgreSQL killed (SIGKILL) at random points: the target is left empty (its schema and
// the migrations' own rows at most) or whole, never with part of the folder's rows; the folder is
// unchanged; and a run after the kills succeeds. The folder is seeded as the bench seeds it, at a
// small scale.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../bench/seed';
import { folderPrint } from '../src-server/cli/move/move-journey';
import { emptyTestDatabase } from '../src-server/db/test-databases';
import { prng, scaled, seedFromEnv } from './scale';
import { SERVER_ENTRY } from './server';

const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const KILLS = scaled(10, 3);

let root: string;
let data: string;
/** The folder's row count of every table the move copies (the app's tables). */
let expected: Record<string, number>;

beforeAll(async () => {
  if (!adminUrl) return;
  root = mkdtempSync(join(tmpdir(), 'taskreward-move-fault-'));
  data = join(root, 'data');
  await seed(data, { users: 400, tasks: 40, submissions: scaled(40_000, 8_000), withdrawals: 800 });
  const sqlite = new Database(join(data, 'taskreward.db'), { readonly: true });
  try {
    const tables = (
      sqlite
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'tasks_fts%'",
        )
        .all() as { name: string }[]
    ).map((r) => r.name);
    expected = Object.fromEntries(
      tables.map((t) => [t, (sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]),
    );
  } finally {
    sqlite.close();
  }
}, 600_000);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs the move; with `killAfterMs`, SIGKILLs it then. Resolves with its exit code or signal. */
function move(
  url: string,
  killAfterMs?: number,
): Promise<{ code: number | null; signal: string | null; out: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_ENTRY, 'move-to-postgres', '--data', data], {
    env: { ...process.env, DATABASE_URL: url, S3_BUCKET: '', FILES_DIR: '' },
  });
  let out = '';
  child.stdout.on('data', (b) => {
    out += b;
  });
  child.stderr.on('data', (b) => {
    out += b;
  });
  const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, out, ms: performance.now() - started });
    });
  });
}

/** "empty" (no row of the folder's beyond what migrating put there), "whole", or what is partial. */
async function targetState(url: string): Promise<'empty' | 'whole' | string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const t of Object.keys(expected)) {
      const res = await client.query(`SELECT count(*)::int AS n FROM "${t}"`).catch(() => null);
      counts[t] = res?.rows[0]?.n ?? 0;
    }
    if (Object.entries(counts).every(([t, n]) => n === expected[t])) return 'whole';
    // the migrations' own rows: their first audit entry and the change counter
    if (counts.users === 0 && counts.ledger === 0 && counts.submissions === 0 && counts.audit_log <= 1)
      return 'empty';
    return `partial: ${JSON.stringify(counts)}`;
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)('a move to PostgreSQL killed at random points', () => {
  it('leaves the target empty or whole, never partial, and a later run succeeds', async () => {
    const runSeed = seedFromEnv();
    console.log(`move fault seed ${runSeed} (FAULTS_SEED=${runSeed} replays it)`);
    const random = prng(runSeed);
    const folder = folderPrint(data);
    // a whole run first: how long a move takes here, to spread the kills over it
    const timing = await emptyTestDatabase(adminUrl, 'taskreward_movef');
    let full: Awaited<ReturnType<typeof move>>;
    try {
      full = await move(timing.url);
      expect(full, full.out).toMatchObject({ code: 0 });
      expect(await targetState(timing.url)).toBe('whole');
    } finally {
      await timing.drop();
    }
    let target = await emptyTestDatabase(adminUrl, 'taskreward_movef');
    const seen: string[] = [];
    try {
      for (let i = 0; i < KILLS; i++) {
        const at = Math.round(random() * full.ms * 1.1);
        const run = await move(target.url, at);
        const state = await targetState(target.url);
        seen.push(`${at} ms: ${run.signal ?? `exit ${run.code}`} → ${state}`);
        expect(['empty', 'whole'], `killed at ${at} ms:\n${run.out}`).toContain(state);
        expect(folderPrint(data)).toEqual(folder);
        if (state === 'whole') {
          // the move got to its end: the next kill needs an empty target again
          await target.drop();
          target = await emptyTestDatabase(adminUrl, 'taskreward_movef');
        }
      }
      console.log(seen.join('\n'));
      const last = await move(target.url);
      expect(last, last.out).toMatchObject({ code: 0 });
      expect(last.out).toContain('doctor on the target: all checks passed');
      expect(await targetState(target.url)).toBe('whole');
      expect(folderPrint(data)).toEqual(folder);
    } finally {
      await target.drop();
    }
  }, 900_000);
});
