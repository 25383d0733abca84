import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DB } from './schema';

export type Db = Kysely<DB>;

export interface OpenedDatabase {
  db: Db;
  /** The raw driver, for the few things Kysely does not do (online backup, pragmas). */
  sqlite: Database.Database;
}

/**
 * Opens the SQLite file with the durability settings of DECISIONS.md: WAL,
 * synchronous=FULL, foreign keys, and a busy timeout for other processes (CLI, backup).
 */
export function openDatabase(file: string): OpenedDatabase {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, sqlite };
}
