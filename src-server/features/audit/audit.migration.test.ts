// The two audit migrations over rows the log held before them, on the run's engine (SQLite, or
// PostgreSQL with TEST_DATABASE_URL): fields named by columns get the API's names and values,
// every row gets its actor's name and email from users (none for an actor already deleted),
// and the log stays append-only.
import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids';
import { migrateToLatest } from '../../db/migrate';
import { migrations } from '../../db/migrations';
import type { DB } from '../../db/schema';
import { emptyUnmigratedDatabase } from '../../testing/empty-database';
import { makeUser } from '../../testing/factories';

let db: Kysely<DB>;
let done: () => Promise<void>;
beforeAll(async () => {
  ({ db, done } = await emptyUnmigratedDatabase('audit-migration'));
});
afterAll(() => done());

const AT = '2026-11-20T10:00:00.000Z';

/** A row as the code before these migrations wrote it (no actor columns yet). */
async function oldRow(actorId: string | null, action: string, changes: unknown): Promise<void> {
  await sql`INSERT INTO audit_log (at, actor_id, action, target_type, target_id, changes)
    VALUES (${AT}, ${actorId}, ${action}, 'task', NULL, ${JSON.stringify(changes)})`.execute(db);
}

describe('the audit migrations over the rows already there', () => {
  it('rename the column words, convert their values, and copy each actor as users has them', async () => {
    const migrator = new Migrator({
      db: db as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
    });
    expect((await migrator.migrateTo('2026-11-29-0904-bytewise-collation')).error).toBeUndefined();
    const live = await makeUser(db, { role: 'admin', name: 'Canlı Admin', email: 'live@example.test' });
    // deleted before the log kept names: its users row was already scrubbed
    const gone = { _id: newId() };
    await makeUser(db, {
      _id: gone._id,
      role: 'user',
      name: 'Deleted user',
      email: 'deleted-x@deleted.invalid',
      deleted_at: AT,
    });
    const cases: [string | null, string, unknown, unknown][] = [
      [
        live._id,
        'task.update',
        {
          title: ['A', 'B'],
          reward: [300, 400],
          is_featured: [0, 1],
          max_completions: [5, 7],
          task_link: [null, 'https://example.test'],
          steps: ['[]', '["Aç","Yükle"]'],
          requirements: ['["x"]', '[]'],
          time_limit_minutes: [60, 30],
          min_seconds: [null, 20],
          estimated_time: ['5 dk', '10 dk'],
          required_proof: ['screenshot', 'link'],
          automaticComments: 3,
        },
        {
          title: ['A', 'B'],
          reward: [300, 400],
          isFeatured: [false, true],
          maxCompletions: [5, 7],
          taskLink: [null, 'https://example.test'],
          steps: [[], ['Aç', 'Yükle']],
          requirements: [['x'], []],
          timeLimitMinutes: [60, 30],
          minSeconds: [null, 20],
          estimatedTime: ['5 dk', '10 dk'],
          requiredProof: ['screenshot', 'link'],
          automaticComments: 3,
        },
      ],
      [live._id, 'task.feature', { is_featured: [false, true] }, { isFeatured: [false, true] }],
      [
        gone._id,
        'user.status',
        { status: ['active', 'banned'], ban_reason: [null, 'Sahte'] },
        { status: ['active', 'banned'], banReason: [null, 'Sahte'] },
      ],
      // other actions already spoke the API's words: left as they were
      [live._id, 'settings.update', { 'site.name': ['A', 'B'] }, { 'site.name': ['A', 'B'] }],
      [
        null,
        'submission.auto_approve',
        { status: ['pending', 'approved'] },
        { status: ['pending', 'approved'] },
      ],
    ];
    for (const [actor, action, changes] of cases) await oldRow(actor, action, changes);

    // the audit migrations run first of those still to run (later ones follow them)
    expect((await migrateToLatest(db)).slice(0, 2)).toEqual([
      '2026-11-29-0905-audit-words',
      '2026-11-29-0915-audit-actor',
    ]);
    const rows = await db
      .selectFrom('audit_log')
      .select(['actor_id', 'actor_name', 'actor_email', 'action', 'changes'])
      .where('action', '<>', 'audit.start')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, JSON.parse(r.changes)])).toEqual(cases.map((c) => [c[1], c[3]]));
    const actors = (id: string | null) =>
      id === live._id ? ['Canlı Admin', 'live@example.test'] : [null, null];
    expect(rows.map((r) => [r.actor_name, r.actor_email])).toEqual(cases.map((c) => actors(c[0])));
    // append-only again, on either engine
    await expect(db.updateTable('audit_log').set({ actor_name: 'x' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
  });
});
