import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SystemDto } from '../../contract/system';
import { recordJobRun, resetJobRuns } from '../../observability/jobs';
import { makeUser } from '../../testing/factories';
import { burst } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { enqueueMail } from '../mail/outbox.repository';

let t: TestApp;
let admin: string;
let user: string;

beforeAll(async () => {
  t = await createTestApp({ env: { NODE_NAME: 'node-sys' } });
  admin = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  user = await t.tokenFor(await makeUser(t.deps.db));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetJobRuns();
  await t.dispose();
});

const system = async (token?: string) => t.call('GET', '/api/admin/system', { token });

describe('GET /api/admin/system', () => {
  it.each([
    ['a visitor', undefined, 401],
    ['a user', 'user', 403],
  ])('refuses %s', async (_, who, status) => {
    const res = await system(who === 'user' ? user : undefined);
    expect(res.status).toBe(status);
  });

  it.each([
    ['suspended', { status: 'suspended' }, 'suspended'],
    ['banned', { status: 'banned', ban_reason: 'kural ihlali' }, 'banned'],
  ] as const)('refuses an admin %s since the token was made', async (_, change, code) => {
    const former = await makeUser(t.deps.db, { role: 'admin' });
    const token = await t.tokenFor(former);
    expect((await system(token)).status).toBe(200);
    await t.deps.db.updateTable('users').set(change).where('_id', '=', former._id).execute();
    const res = await system(token);
    expect(res.status).toBe(403);
    expect(res.body.error?.code ?? res.body.code).toBe(code);
  });

  it('answers a flood of reads without a 5xx, each one whole', async () => {
    const dir = join(t.dataDir, 'backups');
    mkdirSync(dir, { recursive: true });
    // a folder with a long history of archives: each read lists and stats them all
    for (let i = 0; i < 300; i++)
      writeFileSync(join(dir, `taskreward-2026${String(100000 + i)}Z.tar.gz`), 'x'.repeat(10));
    const replies = await burst(60, () => system(admin));
    const statuses = replies.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    for (const r of replies.filter((x) => x.status === 200)) {
      const data: SystemDto = r.body.data;
      expect(data.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(data.queues.map((q) => q.name)).toEqual(['images', 'sign-ins']);
    }
    // the node still answers everyone else afterwards
    expect((await t.call('GET', '/api/settings')).status).toBe(200);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an admin demoted since the token was made', async () => {
    const demoted = await makeUser(t.deps.db, { role: 'admin' });
    const token = await t.tokenFor(demoted);
    await t.deps.db.updateTable('users').set({ role: 'user' }).where('_id', '=', demoted._id).execute();
    expect((await system(token)).status).toBe(403);
  });

  it('tells an admin the version, engine, node, disk, files, jobs and queues', async () => {
    resetJobRuns();
    recordJobRun('expiry', { ok: true, counts: { expired: 1 } }, 12);
    const res = await system(admin);
    expect(res.status).toBe(200);
    const data: SystemDto = res.body.data;
    expect(data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(data.nodeVersion).toBe(process.version);
    expect(['sqlite', 'postgresql']).toContain(data.engine);
    expect(data.nodeName).toBe('node-sys');
    if (data.engine === 'sqlite') expect(data.nodes).toEqual(['node-sys']);
    expect(data.databaseBytes).toBeGreaterThan(0);
    expect(data.disk?.totalBytes).toBeGreaterThan(0);
    expect(data.files.shared).toBe(false);
    expect(data.jobs).toEqual([
      expect.objectContaining({ name: 'expiry', lastOk: true, counts: { expired: 1 }, runs: 1, failures: 0 }),
    ]);
    expect(data.queues.map((q) => q.name)).toEqual(['images', 'sign-ins']);
    expect(data.warnings.filter((w) => w.code === 'job_failing')).toEqual([]);
  });

  it('warns of a failing job, a missing or old scheduled backup and a failed one', async () => {
    vi.stubEnv('BACKUP_INTERVAL_HOURS', '24');
    recordJobRun('auto-approval', { ok: false, error: 'database is locked' });
    let data: SystemDto = (await system(admin)).body.data;
    if (data.engine === 'postgresql') {
      // a PostgreSQL site is backed up by the database's own tools: no schedule, no archive to judge
      expect(data.backup).toMatchObject({ mode: 'database_tools', last: null });
      expect(data.warnings).toEqual(
        expect.arrayContaining([{ code: 'job_failing', job: 'auto-approval', error: 'database is locked' }]),
      );
      recordJobRun('auto-approval', { ok: true, counts: { approved: 0 } });
      data = (await system(admin)).body.data;
      expect(data.warnings.some((w) => w.code === 'job_failing')).toBe(false);
      vi.unstubAllEnvs();
      return;
    }
    expect(data.backup).toMatchObject({ mode: 'scheduled', intervalHours: 24, keep: 7, last: null });
    expect(data.warnings).toEqual(
      expect.arrayContaining([
        { code: 'backup_none' },
        { code: 'job_failing', job: 'auto-approval', error: 'database is locked' },
      ]),
    );
    const dir = join(t.dataDir, 'backups');
    mkdirSync(dir, { recursive: true });
    const old = join(dir, 'taskreward-20261120-000000Z.tar.gz');
    writeFileSync(old, 'x'.repeat(1234));
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    utimesSync(old, threeDaysAgo, threeDaysAgo);
    recordJobRun('scheduled-backup', { ok: false, error: 'no space left on device' });
    data = (await system(admin)).body.data;
    expect(data.backup.last).toMatchObject({ name: 'taskreward-20261120-000000Z.tar.gz', bytes: 1234 });
    expect(data.warnings).toEqual(
      expect.arrayContaining([
        { code: 'backup_old', days: 3 },
        { code: 'backup_failing', error: 'no space left on device' },
      ]),
    );
    recordJobRun('auto-approval', { ok: true, counts: { approved: 0 } });
    data = (await system(admin)).body.data;
    expect(data.warnings.some((w) => w.code === 'job_failing')).toBe(false);
    vi.unstubAllEnvs();
  });

  it('tells what waits in the mail outbox and warns when it stalls or gives up', async () => {
    let data: SystemDto = (await system(admin)).body.data;
    expect(data.mail).toEqual({ configured: false, pending: 0, failedLastWeek: 0, oldestPendingAt: null });
    const now = Date.now();
    const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
    const mail = (at: string) => ({
      kind: 'test',
      userId: null,
      to: 'someone@example.com',
      name: null,
      subject: 's',
      text: 't',
      html: '<p>t</p>',
      at,
    });
    const fresh = await enqueueMail(t.deps.db, mail(ago(2)));
    data = (await system(admin)).body.data;
    expect(data.mail).toMatchObject({ pending: 1, oldestPendingAt: ago(2) });
    expect(data.warnings.some((w) => w.code.startsWith('mail_'))).toBe(false);
    const stuck = await enqueueMail(t.deps.db, mail(ago(95)));
    const failed = await enqueueMail(t.deps.db, mail(ago(60 * 24 * 3)));
    const longAgo = await enqueueMail(t.deps.db, mail(ago(60 * 24 * 9)));
    await t.deps.db
      .updateTable('mail_outbox')
      .set({ status: 'failed' })
      .where('_id', 'in', [failed, longAgo])
      .execute();
    data = (await system(admin)).body.data;
    expect(data.mail).toMatchObject({ pending: 2, failedLastWeek: 1, oldestPendingAt: ago(95) });
    expect(data.warnings).toEqual(
      expect.arrayContaining([
        { code: 'mail_stuck', minutes: 95 },
        { code: 'mail_failed', count: 1 },
      ]),
    );
    await t.deps.db.deleteFrom('mail_outbox').where('_id', 'in', [fresh, stuck, failed, longAgo]).execute();
  });

  it('ignores what a request tries to set', async () => {
    const res = await t.call('GET', '/api/admin/system?engine=postgresql&nodeName=evil', { token: admin });
    expect(res.body.data.nodeName).toBe('node-sys');
    expect((await t.call('POST', '/api/admin/system', { token: admin, body: { version: '9' } })).status).toBe(
      404,
    );
  });
});
