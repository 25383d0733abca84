import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import commonEn from '../../src-web/locales/en/common.json';
import commonTr from '../../src-web/locales/tr/common.json';
import { CATEGORIES } from '../contract/constants';
import { CATEGORY_SEARCH_WORDS, taskSearchBody } from '../features/tasks/task-search';
import { insertTask } from '../features/tasks/tasks.repository';
import { type OpenedSqlite, openDatabase } from './database';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations';
import type { DB } from './schema';
import { containsPattern, foldSearch, likeFolded, tasksContaining, tasksContainingScan } from './search';

describe('foldSearch', () => {
  it.each([
    ['ÇEKİLİŞ', 'cekilis'],
    ['Çekiliş', 'cekilis'],
    ['çekiliş', 'cekilis'],
    ['İnstagram', 'instagram'],
    ['INSTAGRAM', 'instagram'],
    ['IŞIK', 'isik'],
    ['ışık', 'isik'],
    ['Işık', 'isik'],
    ['ĞÜŞİÖÇ ğüşıöç', 'gusioc gusioc'],
    ['Kâr, hâlâ, Âşık, rûh, îmân', 'kar, hala, asik, ruh, iman'],
    ['Café Crème', 'cafe creme'],
    ['ﬁnal ＡＢＣ', 'final abc'],
    ['  çok\t\nboşluk  \u0000 ', 'cok bosluk'],
  ])('folds %j to %j', (text, folded) => {
    expect(foldSearch(text)).toBe(folded);
  });

  it('gives the same text for every spelling of a Turkish word', () => {
    const spellings = ['ışıklı', 'IŞIKLI', 'Işıklı', 'isikli', 'ISIKLI', 'İŞİKLİ', 'ışikli'];
    expect(new Set(spellings.map(foldSearch))).toEqual(new Set(['isikli']));
  });

  it('escapes the LIKE wildcards and the escape itself', () => {
    expect(containsPattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });
});

describe('CATEGORY_SEARCH_WORDS', () => {
  it('holds the English and Turkish label of every category, as the locale files have them', () => {
    for (const category of CATEGORIES) {
      expect(CATEGORY_SEARCH_WORDS[category]).toContain(commonEn.categories[category]);
      const tr = commonTr.categories[category];
      if (tr !== commonEn.categories[category]) expect(CATEGORY_SEARCH_WORDS[category]).toContain(tr);
    }
  });

  it('puts each part of the body on its own line, so no match runs across them', () => {
    expect(taskSearchBody('Bir  açıklama', 'giveaway')).toBe('bir aciklama\ngiveaway\ncekilis');
  });
});

let dir: string;
let opened: OpenedSqlite;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-search-'));
  opened = openDatabase(join(dir, 'test.db'));
  await migrateToLatest(opened.db);
});
afterAll(async () => {
  await opened.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('tasksContaining', () => {
  const words = [
    'Çekiliş',
    'ışık',
    'İnstagram',
    'yorum',
    'ödül',
    'Şans',
    'görüntüsü',
    'ağaç',
    'IĞDIR',
    'kâr',
  ];
  let texts: string[] = [];

  beforeAll(async () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const phrase = (n: number) => Array.from({ length: n }, () => words[rnd(words.length)]).join(' ');
    const now = new Date().toISOString();
    for (let i = 0; i < 120; i++) {
      const title = phrase(1 + rnd(3));
      const description = `${phrase(2 + rnd(6))}\n${phrase(1 + rnd(3))}`;
      texts.push(foldSearch(title), foldSearch(description));
      await insertTask(opened.db, {
        _id: `t${i}`,
        title,
        description,
        category: CATEGORIES[i % CATEGORIES.length],
        reward: 100,
        deadline: null,
        difficulty: 'easy',
        status: 'active',
        max_completions: 10,
        required_proof: 'screenshot',
        task_link: null,
        estimated_time: null,
        created_by: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
    }
    texts = texts.filter(Boolean);
  });

  const ids = async (where: ReturnType<typeof tasksContaining>) =>
    (await opened.db.selectFrom('tasks').select('_id').where(where).orderBy('_id').execute()).map(
      (r) => r._id,
    );
  const scan = (folded: string) =>
    sql<SqlBool>`(${likeFolded(sql.ref('tasks.search_title'), folded)} OR ${likeFolded(sql.ref('tasks.search_body'), folded)})`;

  it('finds through the trigram index exactly what a scan of the folded columns finds', async () => {
    const queries = new Set<string>([
      'cekilis isik',
      'odul',
      'igdir kar',
      'xyz',
      'i',
      'is',
      'r s',
      'kar\ncekilis',
    ]);
    for (const text of texts.slice(0, 60)) {
      for (const len of [3, 4, 7, 12]) {
        const at = Math.floor(text.length / 3);
        if (text.length >= at + len) queries.add(text.slice(at, at + len));
      }
    }
    let found = 0;
    for (const q of queries) {
      const viaIndex = await ids(tasksContaining(opened.db, q));
      expect(viaIndex, q).toEqual(await ids(scan(q)));
      expect(await ids(tasksContainingScan(opened.db, q)), q).toEqual(viaIndex);
      found += viaIndex.length;
    }
    expect(found).toBeGreaterThan(100);
  });

  it('reads FTS syntax as text, never as operators', async () => {
    for (const q of [
      '"',
      '""',
      'a"b',
      'cekilis OR yorum',
      'cekilis*',
      'NEAR(isik yorum)',
      'search_body: isik',
      '^isik',
    ]) {
      expect(await ids(tasksContaining(opened.db, q)), q).toEqual(await ids(scan(q)));
      expect(await ids(tasksContainingScan(opened.db, q)), q).toEqual(await ids(scan(q)));
    }
  });

  it('reads LIKE wildcards and the escape as text in the scan too', async () => {
    await opened.db
      .updateTable('tasks')
      .set({ search_title: 'yuzde 100% a_b c\\d' })
      .where('_id', '=', 't2')
      .execute();
    for (const q of ['100%', '%', 'a_b', '_', 'c\\d', '\\', '0% a', 'e 1', 'a%b', 'ab']) {
      const expected = await ids(scan(q));
      expect(await ids(tasksContainingScan(opened.db, q)), q).toEqual(expected);
      expect(await ids(tasksContaining(opened.db, q)), q).toEqual(expected);
    }
    expect(await ids(tasksContainingScan(opened.db, 'a_b'))).toEqual(['t2']);
    expect(await ids(tasksContainingScan(opened.db, 'ab'))).toEqual([]);
  });

  it('keeps the index in step with updates and deletes of the folded columns', async () => {
    await opened.db
      .updateTable('tasks')
      .set({ search_title: 'tamamen yeni baslik' })
      .where('_id', '=', 't1')
      .execute();
    expect(await ids(tasksContaining(opened.db, 'tamamen yeni'))).toEqual(['t1']);
    await opened.db.deleteFrom('tasks').where('_id', '=', 't1').execute();
    expect(await ids(tasksContaining(opened.db, 'tamamen yeni'))).toEqual([]);
    const check = sql`INSERT INTO tasks_fts(tasks_fts, rank) VALUES ('integrity-check', 1)`;
    await expect(check.execute(opened.db)).resolves.toBeDefined();
  });
});

describe('the search-folding migration', () => {
  it('folds the rows that were there before it, and indexes them', async () => {
    const file = join(dir, 'older.db');
    const older = openDatabase(file);
    try {
      const before = Object.keys(migrations).filter((name) => name < '2026-11-25-1300-search-folding');
      const migrator = new Migrator({
        db: older.db as unknown as Kysely<unknown>,
        provider: { getMigrations: async () => migrations },
      });
      const to = await migrator.migrateTo(before.at(-1) ?? '');
      expect(to.error).toBeUndefined();
      const now = new Date().toISOString();
      const exec = (text: string, ...values: unknown[]) => older.sqlite.prepare(text).run(...values);
      exec(
        `INSERT INTO users (_id, name, email, password_hash, role, status, created_at, updated_at)
         VALUES ('u1', 'IŞIK Çağlar', 'isik@example.test', 'x', 'user', 'active', ?, ?)`,
        now,
        now,
      );
      exec(
        `INSERT INTO tasks (_id, title, description, category, reward, difficulty, status, max_completions,
           required_proof, created_at, updated_at)
         VALUES ('t1', 'Büyük ÇEKİLİŞ', 'Katıl ve kazan', 'giveaway', 100, 'easy', 'active', 5, 'screenshot', ?, ?)`,
        now,
        now,
      );
      exec(
        `INSERT INTO withdrawals (_id, user_id, amount, payment_method, full_name, account_number, status,
           created_at, updated_at)
         VALUES ('w1', 'u1', 100, 'papara', 'Öykü Şen', '1234567890', 'pending', ?, ?)`,
        now,
        now,
      );
      await migrateToLatest(older.db);
      const db = older.db as Kysely<DB>;
      expect(await db.selectFrom('users').select('name_search').executeTakeFirst()).toEqual({
        name_search: 'isik caglar',
      });
      expect(await db.selectFrom('withdrawals').select('full_name_search').executeTakeFirst()).toEqual({
        full_name_search: 'oyku sen',
      });
      const task = await db.selectFrom('tasks').select(['search_title', 'search_body']).executeTakeFirst();
      expect(task).toEqual({
        search_title: 'buyuk cekilis',
        search_body: 'katil ve kazan\ngiveaway\ncekilis',
      });
      const found = await db
        .selectFrom('tasks')
        .select('_id')
        .where(tasksContaining(db, 'cekilis'))
        .execute();
      expect(found).toEqual([{ _id: 't1' }]);
    } finally {
      await older.db.destroy();
    }
  });
});
