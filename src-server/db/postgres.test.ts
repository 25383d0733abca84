import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from './postgres';
import { prepared } from './prepared';
import { emptyTestDatabase, testDatabaseUrl } from './test-databases';

const url = testDatabaseUrl();

// The hot reads go to PostgreSQL as named statements, prepared once per connection; everything
// else stays unnamed, and a named statement survives its table changing under it.
describe.skipIf(!url)('PostgreSQL named statements', () => {
  let database: { url: string; drop: () => Promise<void> };
  let opened: ReturnType<typeof openPostgres>;

  beforeAll(async () => {
    database = await emptyTestDatabase(url as string, 'taskreward_named');
    // one connection, so the statements it holds are the ones the test's queries made
    opened = openPostgres(database.url, { poolSize: 1 });
    await sql`CREATE TABLE things (id text PRIMARY KEY, label text)`.execute(opened.db);
    await sql`INSERT INTO things VALUES ('a', 'first'), ('b', 'second')`.execute(opened.db);
  });
  afterAll(async () => {
    await opened?.db.destroy();
    await database?.drop();
  });

  // biome-ignore lint/suspicious/noExplicitAny: a table of the test's own
  const byId = prepared((db: any, id: string) => db.selectFrom('things').selectAll().where('id', '=', id));
  const held = async () =>
    (
      await sql<{
        name: string;
        statement: string;
      }>`SELECT name, statement FROM pg_prepared_statements`.execute(opened.db)
    ).rows;

  it('prepares a compiled-once read once and runs it again by name', async () => {
    expect(await byId(opened.db, 'a')).toEqual([{ id: 'a', label: 'first' }]);
    expect(await byId(opened.db, 'b')).toEqual([{ id: 'b', label: 'second' }]);
    const statements = await held();
    const mine = statements.filter((s) => s.statement.includes('"things"'));
    expect(mine).toHaveLength(1);
    expect(mine[0].name).toMatch(/^tr\d+$/);
    // a query built on the spot is not kept on the server
    await sql`SELECT * FROM "things" WHERE id = ${'a'}`.execute(opened.db);
    expect((await held()).filter((s) => s.statement.includes('"things"'))).toHaveLength(1);
  });

  it('prepares the text again when the table under it changed', async () => {
    await sql`ALTER TABLE things ADD COLUMN extra integer`.execute(opened.db);
    expect(await byId(opened.db, 'a')).toEqual([{ id: 'a', label: 'first', extra: null }]);
    expect(await byId(opened.db, 'b')).toEqual([{ id: 'b', label: 'second', extra: null }]);
  });
});
