import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../features/mail/outbox.repository';
import { makeUser } from '../testing/factories';
import { fund, listen, makeWithdrawal } from '../testing/money-factories';
import { createTestApp, type TestApp } from '../testing/test-app';
import { recordJobRun } from './jobs';
import { forgetSiteNumbers } from './render-metrics';

const TOKEN = 'scrape-token-for-tests-0123456789';
let t: TestApp;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  server = await listen(t.app);
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

async function scrape(): Promise<string> {
  forgetSiteNumbers();
  const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toContain('text/plain');
  return res.text();
}

/** The series (sample lines) of the scrape, comments left out. */
const series = (text: string) => text.split('\n').filter((l) => l && !l.startsWith('#'));
const value = (text: string, name: string) =>
  Number(
    series(text)
      .find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
      ?.split(' ')
      .at(-1),
  );

describe('GET /metrics', () => {
  it.each([
    ['no token', {}],
    ['a wrong token', { Authorization: 'Bearer not-it' }],
    ['the token without Bearer', { Authorization: TOKEN }],
  ])('is a 404 with %s', async (_, headers) => {
    const res = await fetch(`${server.url}/metrics`, { headers });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('route_not_found');
  });

  it('is a 404 on a site without METRICS_TOKEN, whatever the token', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
    } finally {
      await plain.dispose();
    }
  });

  it('keeps the number of series flat across requests to 1,000 different task ids', async () => {
    const ids = (n: number, from: number) => Array.from({ length: n }, (_, i) => `task-${from + i}`);
    for (const id of ids(20, 0)) await fetch(`${server.url}/api/tasks/${id}`);
    // the first scrape adds the scrape's own route
    await scrape();
    const first = await scrape();
    const before = series(first).length;
    const routes = (text: string) => series(text).filter((l) => l.includes('route=')).length;
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(ids(50, 1000 + i).map((id) => fetch(`${server.url}/api/tasks/${id}?q=${id}`)));
    }
    const text = await scrape();
    // exactly the same request series; Node's own may add a kind of GC meanwhile (a few lines),
    // where one series per id would be thousands
    expect(routes(text)).toBe(routes(first));
    expect(Math.abs(series(text).length - before)).toBeLessThan(30);
    expect(text).not.toContain('task-10');
    const count = series(text).find((l) =>
      l.startsWith(
        'taskreward_http_request_duration_seconds_count{method="GET",route="/api/tasks/:id",status_class="4xx"}',
      ),
    );
    expect(Number(count?.split(' ').at(-1))).toBeGreaterThanOrEqual(1020);
  });

  it('shows the backlog, the jobs, the build and the process', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 20_000);
    await makeWithdrawal(t.deps.db, user._id, { amount: 7_550, created_at: '2026-01-01T00:00:00.000Z' });
    await enqueueMail(t.deps.db, {
      kind: 'test',
      userId: null,
      to: 'someone@example.com',
      name: null,
      subject: 's',
      text: 't',
      html: 't',
      at: new Date(Date.now() - 2 * 3600_000).toISOString(),
    });
    recordJobRun('expiry', { ok: true, counts: { expired: 2 } });
    recordJobRun('scheduled-backup', { ok: false, error: 'disk full' });
    const text = await scrape();
    expect(value(text, 'taskreward_pending_withdrawals')).toBe(1);
    expect(value(text, 'taskreward_pending_withdrawals_tl')).toBe(75.5);
    expect(value(text, 'taskreward_oldest_pending_withdrawal_age_seconds')).toBeGreaterThan(86_400);
    expect(value(text, 'taskreward_users')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'taskreward_mail_outbox_pending')).toBe(1);
    expect(value(text, 'taskreward_oldest_pending_mail_age_seconds')).toBeGreaterThan(7_000);
    expect(text).toMatch(/taskreward_pending_submissions \d+/);
    expect(text).toMatch(/taskreward_open_fraud_flags \d+/);
    expect(text).toMatch(/taskreward_job_last_success_timestamp_seconds\{job="expiry"\} \d+/);
    expect(text).toMatch(/taskreward_job_failures_total\{job="scheduled-backup"\} [1-9]/);
    expect(text).toMatch(
      /taskreward_build_info\{version="[^"]+",node_version="v\d+[^"]*",engine="(sqlite|postgresql)"\} 1/,
    );
    expect(text).toMatch(/taskreward_image_queue_jobs\{queue="images",state="waiting"\} 0/);
    expect(text).toMatch(/taskreward_db_transaction_duration_seconds_count\{outcome="commit"\} [1-9]/);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('nodejs_heap_size_used_bytes');
  });
});

describe('the monitoring examples in docs/monitoring', () => {
  it('name only metrics the server exposes', async () => {
    const text = await scrape();
    const exposed = new Set([...text.matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]));
    const docs = join(dirname(fileURLToPath(import.meta.url)), '../../docs/monitoring');
    const named = new Set<string>();
    for (const file of readdirSync(docs)) {
      for (const m of readFileSync(join(docs, file), 'utf8').matchAll(/\btaskreward_\w+/g)) {
        named.add(m[0].replace(/_(bucket|count|sum)$/, ''));
      }
    }
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((name) => !exposed.has(name))).toEqual([]);
  });
});

describe('the probes', () => {
  it('answers /healthz and /readyz while the app serves', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
  });

  it('names the file store when it is gone, and the migrations when the database is behind', async () => {
    const other = await createTestApp();
    try {
      const { rmSync } = await import('node:fs');
      rmSync(`${other.dataDir}/files`, { recursive: true, force: true });
      const gone = await other.app.request('/readyz');
      expect(gone.status).toBe(503);
      expect((await gone.json()).failing).toEqual(['files']);
      const { sql } = await import('kysely');
      await sql`delete from kysely_migration where name = (select max(name) from kysely_migration)`.execute(
        other.deps.db,
      );
      const behind = await (await other.app.request('/readyz')).json();
      expect(behind.failing).toEqual(['migrations', 'files']);
    } finally {
      await other.dispose();
    }
  });
});
