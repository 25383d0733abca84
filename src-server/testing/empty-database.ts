import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from '../db/database';
import { openPostgres } from '../db/postgres';
import type { DB } from '../db/schema';
import { emptyTestDatabase, testDatabaseUrl } from '../db/test-databases';

/**
 * An empty database on the run's engine, with no migration applied (SQLite in a temporary
 * folder, or a new database on TEST_DATABASE_URL's server): for the tests of a migration over
 * rows written as the code before it wrote them. `done` closes and removes it.
 */
export async function emptyUnmigratedDatabase(
  name: string,
): Promise<{ db: Kysely<DB>; done: () => Promise<void> }> {
  const url = testDatabaseUrl();
  if (url) {
    const database = await emptyTestDatabase(url);
    const { db } = openPostgres(database.url, { poolSize: 2 });
    return {
      db,
      done: async () => {
        await db.destroy();
        await database.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `taskreward-${name}-`));
  const { db } = openDatabase(join(dir, 'test.db'));
  return {
    db,
    done: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
