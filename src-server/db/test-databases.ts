import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from './migrate';
import { openPostgres } from './postgres';

/**
 * PostgreSQL for the tests: with TEST_DATABASE_URL set, every test app gets a database
 * of its own, cloned from a template migrated once per run (CREATE DATABASE … TEMPLATE copies
 * files, much faster than migrating each time), and dropped when the app is disposed.
 */

export function testDatabaseUrl(): string | null {
  return process.env.TEST_DATABASE_URL || null;
}

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One client on `url` for the length of `fn` (creating and dropping databases, checks). */
export async function withPgClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * `CREATE DATABASE` as an operator would type it: UTF-8 and the server's default collation
 * (en_US.UTF-8 or C.UTF-8 on most services), which the app must not depend on (its columns carry
 * their ordering), unless `locale` names another one.
 */
function createDatabaseSql(name: string, locale?: string): string {
  const chosen = locale ? ` LOCALE '${locale}'` : '';
  return `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8'${chosen}`;
}

/** Creates and migrates the run's template database; returns its name. */
export async function createTemplateDatabase(url: string): Promise<string> {
  const name = `taskreward_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
  await withPgClient(url, (c) => c.query(createDatabaseSql(name)));
  const { db } = openPostgres(withDatabase(url, name), { poolSize: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return name;
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await withPgClient(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** A fresh database cloned from the template: its URL, and how to drop it. */
export async function cloneTestDatabase(
  url: string,
  template: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `taskreward_t_${randomBytes(6).toString('hex')}`;
  await withPgClient(url, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return { url: withDatabase(url, name), drop: () => dropDatabase(url, name) };
}

/**
 * An empty database (the server's default collation, or `locale`), for commands that migrate it
 * themselves.
 */
export async function emptyTestDatabase(
  url: string,
  prefix = 'taskreward_e',
  locale?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withPgClient(url, (c) => c.query(createDatabaseSql(name, locale)));
  return { url: withDatabase(url, name), drop: () => dropDatabase(url, name) };
}
