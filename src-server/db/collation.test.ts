import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app';
import { type Opened, openApp } from '../bootstrap';
import { runCli } from '../cli';
import { runDoctor } from '../cli/doctor';
import { readConfig } from '../config';
import { type Cursor, usersBatch } from '../features/exports/admin-exports.repository';
import { DataFolder } from '../storage/data-folder';
import { CLUSTER_ENV } from '../testing/cluster';
import { makeUser } from '../testing/factories';
import { makeTask } from '../testing/money-factories';
import { testsOnPostgres } from '../testing/test-app';
import { emptyTestDatabase, testDatabaseUrl } from './test-databases';

// A database made as a managed service makes it (the server's default collation, C.UTF-8 or
// en_US.UTF-8, not C) must give the app the answers SQLite gives: text ordered byte by byte.

const AT = '2026-03-04T05:06:07.000Z';
// neighbours that a linguistic collation orders otherwise than bytes do: case, the Turkish
// letters, accents, punctuation and spaces (en_US.UTF-8 puts "apple" before "Apple" before
// "Zebra"; bytes put "Apple" and "Zebra" before "apple")
const WORDS = [
  'apple',
  'Apple',
  'Zebra',
  'zebra',
  'İstanbul',
  'istanbul',
  'Irmak',
  'ırmak',
  'çay',
  'Çay',
  'Ölçü',
  'ölçü',
  'éclair',
  'Éclair',
  'Şeker',
  'şeker',
  'b-2',
  'b1',
  'a b',
  'ab',
];
/** JavaScript's order, which is the bytes' order for these (no character beyond U+FFFF). */
const jsSorted = (list: string[]) => [...list].sort();

interface AppOn {
  opened: Opened;
  app: ReturnType<typeof createApp>;
  dataDir: string;
  close(): Promise<void>;
}

async function appOn(env: Record<string, string>): Promise<AppOn> {
  const dataDir = mkdtempSync(join(tmpdir(), 'taskreward-collation-'));
  const opened = await openApp(readConfig({ DATA_DIR: dataDir, ...env }), { web: new Map() });
  return {
    opened,
    app: createApp(opened.deps),
    dataDir,
    async close() {
      await opened.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function seed(a: AppOn) {
  const db = a.opened.deps.db;
  for (const [i, word] of WORDS.entries()) {
    // mixed-case ids and one created_at: the lists' tie-break on _id decides the order
    await makeTask(db, { _id: `t ${word}`, title: word, created_at: AT, updated_at: AT });
    await makeUser(db, { _id: `u ${word}`, name: word, email: `user${i}@example.test`, created_at: AT });
  }
}

async function get(a: AppOn, path: string) {
  const res = await a.app.request(path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

/** What the app reads in an order or by a comparison of text, on one engine. */
async function reads(a: AppOn) {
  const db = a.opened.deps.db;
  const ids = (data: { items: { _id: string }[] }) => data.items.map((i) => i._id);
  const byTitle = await db.selectFrom('tasks').select('title').orderBy('title').orderBy('_id').execute();
  // every title from "Z" up to (not with) "a": byte order puts only the capitals there
  const between = await db
    .selectFrom('tasks')
    .select('title')
    .where('title', '>=', 'Z')
    .where('title', '<', 'a')
    .orderBy('title')
    .execute();
  const newest = ids(await get(a, '/api/tasks?sort=newest&limit=100'));
  const oldestPages: string[] = [];
  for (let page = 1; page <= 3; page++)
    oldestPages.push(...ids(await get(a, `/api/tasks?sort=oldest&limit=7&page=${page}`)));
  // the users export's keyset paging: (created_at, _id) cursors, three at a time
  const keyset: string[] = [];
  let cursor: Cursor | null = null;
  for (;;) {
    const batch = await usersBatch(db, { status: 'all' }, cursor, 3);
    if (batch.length === 0) break;
    keyset.push(...batch.map((u) => u._id));
    const last = batch.at(-1)!;
    cursor = { createdAt: last.created_at, id: last._id };
  }
  const search: Record<string, string[]> = {};
  for (const q of ['ISTANBUL', 'cay', 'olcu', 'irmak', 'Eclair'])
    search[q] = (await get(a, `/api/tasks?q=${encodeURIComponent(q)}&limit=100`)).items.map(
      (i: { title: string }) => i.title,
    );
  const userSearch = (await usersBatch(db, { status: 'all', q: 'SEKER' }, null, 100)).map((u) => u.name);
  return {
    byTitle: byTitle.map((r) => r.title),
    between: between.map((r) => r.title),
    newest,
    oldestPages,
    keyset,
    search,
    userSearch,
  };
}

let sqlite: AppOn;
let onSqlite: Awaited<ReturnType<typeof reads>>;
beforeAll(async () => {
  if (!testsOnPostgres) return;
  sqlite = await appOn({});
  await seed(sqlite);
  onSqlite = await reads(sqlite);
});
afterAll(async () => {
  await sqlite?.close();
});

describe.skipIf(!testsOnPostgres)('PostgreSQL on a database with the server default collation', () => {
  it('SQLite, the reference, orders the words as JavaScript does', () => {
    const tasks = jsSorted(WORDS.map((w) => `t ${w}`));
    expect(onSqlite.byTitle).toEqual(jsSorted(WORDS));
    expect(onSqlite.between).toEqual(['Zebra']);
    expect(onSqlite.newest).toEqual(tasks);
    expect(onSqlite.oldestPages).toEqual(tasks);
    expect(onSqlite.keyset).toEqual(jsSorted(WORDS.map((w) => `u ${w}`)).reverse());
    expect(jsSorted(onSqlite.search.ISTANBUL)).toEqual(['istanbul', 'İstanbul']);
    expect(jsSorted(onSqlite.userSearch)).toEqual(['Şeker', 'şeker']);
  });

  for (const locale of ['C.UTF-8', 'en_US.UTF-8']) {
    describe(`LC_COLLATE '${locale}'`, () => {
      let database: { url: string; drop: () => Promise<void> } | null = null;
      let pg: AppOn | null = null;
      let missing = '';
      const env = () => ({ DATABASE_URL: database!.url, TOKEN_SECRET: CLUSTER_ENV.TOKEN_SECRET });
      beforeAll(async () => {
        try {
          database = await emptyTestDatabase(testDatabaseUrl()!, 'taskreward_locale', locale);
        } catch (err) {
          // 42809 "invalid locale name": the server has no such locale (Debian: generate it with
          // locale-gen, then restart PostgreSQL, which reads the machine's locales once)
          if ((err as { code?: string }).code !== '42809') throw err;
          missing = `the PostgreSQL server has no ${locale} locale: ${(err as Error).message}`;
          return;
        }
        pg = await appOn(env());
        await seed(pg);
      });
      afterAll(async () => {
        await pg?.close();
        await database?.drop();
      });

      it('is a database of that collation, not C', async (ctx) => {
        if (missing) ctx.skip(missing);
        const { rows } = await sql<{ collate: string }>`
          SELECT datcollate AS collate FROM pg_database WHERE datname = current_database()`.execute(
          pg!.opened.deps.db,
        );
        expect(rows[0]?.collate).toBe(locale);
      });

      it('orders, compares, pages and searches text as SQLite does', async (ctx) => {
        if (missing) ctx.skip(missing);
        expect(await reads(pg!)).toEqual(onSqlite);
      });

      it('passes doctor (exit 0, all checks passed)', async (ctx) => {
        if (missing) ctx.skip(missing);
        for (const [name, value] of Object.entries(env())) vi.stubEnv(name, value);
        const log = vi.spyOn(console, 'log').mockImplementation(() => {});
        const error = vi.spyOn(console, 'error').mockImplementation(() => {});
        try {
          const code = await runCli(['doctor', '--data', pg!.dataDir]);
          expect(error.mock.calls).toEqual([]);
          expect(code).toBe(0);
          expect(log.mock.calls.flat().join('\n')).toContain('all checks passed');
        } finally {
          vi.restoreAllMocks();
          vi.unstubAllEnvs();
        }
      });

      it("doctor names a text column left on the database's collation", async (ctx) => {
        if (missing) ctx.skip(missing);
        const db = pg!.opened.deps.db;
        await sql`ALTER TABLE users ALTER COLUMN name TYPE text COLLATE "default"`.execute(db);
        try {
          const findings = await runDoctor(new DataFolder(pg!.dataDir), { databaseUrl: database!.url });
          expect(findings).toEqual([
            {
              check: 'database',
              message: expect.stringContaining(`users.name ("${locale}", the database's default)`),
            },
          ]);
        } finally {
          await sql`ALTER TABLE users ALTER COLUMN name TYPE text COLLATE "C"`.execute(db);
        }
      });
    });
  }
});
