// The task list with 10,000 tasks: prints timings, asserts nothing about speed.
// Run: BENCH=1 npx vitest run --project unit src-server/features/tasks/tasks.bench
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, DIFFICULTIES } from '../../contract/constants';
import { newId } from '../../db/ids';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';

const TASKS = 10_000;
const RUNS = 30;
let t: TestApp;
let userToken: string;
let adminToken: string;
let someId: string;

beforeAll(async () => {
  if (!process.env.BENCH) return;
  t = await createTestApp();
  const user = await makeUser(t.deps.db);
  userToken = await t.tokenFor(user);
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  const base = Date.parse('2026-01-01T00:00:00Z');
  const rows = Array.from({ length: TASKS }, (_, i) => ({
    _id: newId(),
    title: `Görev ${i} ${['Instagram takip', 'Uygulama yorumu', 'Anket doldur', 'Video izle'][i % 4]}`,
    description: `Açıklama ${i}: adımları izleyin ve ekran görüntüsü yükleyin`,
    category: CATEGORIES[i % CATEGORIES.length],
    reward: 100 + ((i * 37) % 9000),
    deadline: i % 10 === 0 ? '2000-01-01T00:00:00.000Z' : i % 3 === 0 ? '2099-01-01T00:00:00.000Z' : null,
    difficulty: DIFFICULTIES[i % 3],
    status: i % 7 === 0 ? 'inactive' : 'active',
    max_completions: 1000,
    required_proof: 'screenshot',
    task_link: null,
    is_featured: i % 50 === 0 ? 1 : 0,
    estimated_time: i % 5 === 0 ? null : (i * 13) % 120,
    total_completed: (i * 7) % 500,
    created_by: null,
    created_at: new Date(base + i * 60_000).toISOString(),
    updated_at: new Date(base + i * 60_000).toISOString(),
    deleted_at: i % 97 === 0 ? '2026-02-01T00:00:00.000Z' : null,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await t.deps.db
      .insertInto('tasks')
      .values(rows.slice(i, i + 500))
      .execute();
  someId = rows[1]._id;
  // the user completed 300 of them: the list hides those
  const now = new Date().toISOString();
  for (const row of rows.slice(0, 300)) {
    const ut = newId();
    await t.deps.db
      .insertInto('user_tasks')
      .values({
        _id: ut,
        user_id: user._id,
        task_id: row._id,
        status: 'completed',
        automatic_comment: null,
        started_at: now,
        completed_at: now,
      })
      .execute();
    await t.deps.db
      .insertInto('submissions')
      .values({
        _id: newId(),
        user_task_id: ut,
        user_id: user._id,
        task_id: row._id,
        status: 'approved',
        description: null,
        feedback: 'ok',
        rejection_reason: null,
        reward: row.reward,
        proof_file: null,
        created_at: now,
        updated_at: now,
        reviewed_by: null,
        reviewed_at: null,
      })
      .execute();
  }
}, 120_000);
afterAll(async () => {
  if (t) await t.dispose();
});

async function time(path: string, token?: string) {
  const samples: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const res = await t.call('GET', path, { token });
    samples.push(performance.now() - started);
    expect(res.status).toBe(200);
    total = res.body.data.total ?? 1;
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(RUNS / 2)], p95: samples[Math.floor(RUNS * 0.95)], total };
}

describe.skipIf(!process.env.BENCH)(`GET /api/tasks over ${TASKS} tasks`, () => {
  it('prints the time of each kind of list request', async () => {
    const cases: [string, string, string | undefined][] = [
      ['visitor, default (newest, page 1 of 20)', '/api/tasks', undefined],
      ['user (hides 300 completed)', '/api/tasks', 'user'],
      ['search q=anket', '/api/tasks?q=anket', 'user'],
      ['category + reward 20-50', '/api/tasks?category=survey&rewardRange=20-50', 'user'],
      ['difficulty + 50+', '/api/tasks?difficulty=hard&rewardRange=50%2B', undefined],
      ['sort oldest', '/api/tasks?sort=oldest', undefined],
      ['sort highest_reward', '/api/tasks?sort=highest_reward', undefined],
      ['sort lowest_reward', '/api/tasks?sort=lowest_reward', undefined],
      ['sort quickest', '/api/tasks?sort=quickest', undefined],
      ['sort most_popular', '/api/tasks?sort=most_popular', undefined],
      ['deep page (page 300, limit 20)', '/api/tasks?page=300', undefined],
      ['limit 100', '/api/tasks?limit=100', undefined],
      ['admin all=1', '/api/tasks?all=1', 'admin'],
      ['admin status=inactive', '/api/tasks?status=inactive', 'admin'],
      ['detail GET /api/tasks/{id}', '', 'user'],
    ];
    const lines: string[] = [];
    for (const [name, path, who] of cases) {
      const token = who === 'user' ? userToken : who === 'admin' ? adminToken : undefined;
      const r = await time(path || `/api/tasks/${someId}`, token);
      lines.push(
        `${name.padEnd(42)} median ${r.median.toFixed(1).padStart(6)} ms   p95 ${r.p95.toFixed(1).padStart(6)} ms   total ${r.total}`,
      );
    }
    console.log(
      `\nGET /api/tasks with ${TASKS} tasks (${RUNS} runs each, app.request, no network)\n${lines.join('\n')}\n`,
    );
  }, 300_000);
});
