// The database of a fault suite's run: the server's own SQLite file by default; with
// FAULTS_POSTGRES=1, a fresh PostgreSQL database on TEST_DATABASE_URL's server, created
// with the server's default collation, as an operator would, and dropped at the end.
import { randomBytes } from 'node:crypto';
import { emptyTestDatabase } from '../src-server/db/test-databases';

export function postgresFaultUrl(): string | null {
  return process.env.TEST_DATABASE_URL || null;
}

/** A fresh, empty PostgreSQL database on the test server; its URL and how to drop it. */
export async function freshPostgresDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = postgresFaultUrl();
  if (!server) throw new Error('TEST_DATABASE_URL is not set: get a PostgreSQL with `. .ci/postgres.sh`');
  return emptyTestDatabase(server, prefix);
}

/**
 * The environment that puts a server on the run's engine ({} for SQLite; DATABASE_URL and a
 * TOKEN_SECRET, which PostgreSQL mode requires, for PostgreSQL), and the clean-up.
 */
export function faultDatabase() {
  let made: { url: string; drop: () => Promise<void> } | null = null;
  let env: Record<string, string> | null = null;
  return {
    async env(): Promise<Record<string, string>> {
      if (env) return env;
      if (process.env.FAULTS_POSTGRES !== '1') {
        env = {};
        return env;
      }
      made = await freshPostgresDatabase('taskreward_fault');
      env = { DATABASE_URL: made.url, TOKEN_SECRET: randomBytes(32).toString('hex') };
      return env;
    },
    async drop() {
      await made?.drop();
    },
  };
}
