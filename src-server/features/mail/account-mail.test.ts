import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src-web/lib/format';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeTask, makeWithdrawal } from '../../testing/money-factories';
import { linkIn, SmtpSink } from '../../testing/smtp-sink';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { formatKurus } from './money-format';
import { onMailJobRun, sendDueMail } from './outbox.job';

let sink: SmtpSink;
let t: TestApp;
let adminToken: string;
let n = 0;
const fresh = () => `acct-${++n}-${Date.now()}@example.test`;
const ip = () => ({ 'X-Forwarded-For': `10.1.${n}.${Math.floor(Math.random() * 250)}` });

async function deliver() {
  const before = sink.mails.length;
  expect((await sendDueMail(t.deps)).ok).toBe(true);
  return sink.mails.slice(before);
}

beforeAll(async () => {
  sink = await new SmtpSink().start();
  ({ t, adminToken } = await createAdminTestApp({
    env: { SMTP_URL: sink.url, MAIL_FROM: 'TaskReward <no-reply@taskreward.test>', TRUST_PROXY: '1' },
    throttle: { mailsPerRecipient: 2 },
  }));
});
afterAll(async () => {
  await t.dispose();
  await sink.stop();
});

describe('address verification', () => {
  it('mails a link at registration in the screen language; the link verifies the address once', async () => {
    const email = fresh();
    const reg = await t.call('POST', '/api/auth/register', {
      body: { name: 'New Worker', email, password: 'secret123', language: 'en' },
      headers: ip(),
    });
    expect(reg.status).toBe(201);
    expect(reg.body.data).toMatchObject({ emailVerified: false, language: 'en', emailNotifications: true });
    const [mail] = await deliver();
    expect(mail.recipients).toEqual([email]);
    expect(mail.parsed.subject).toBe('Confirm your email address for TaskReward');
    const { token } = linkIn(mail, '/verify-email');
    const ok = await t.call('POST', '/api/auth/verify-email', { body: { token }, headers: ip() });
    expect(ok.status).toBe(200);
    const me = await t.call('GET', '/api/users/me', { token: reg.body.token });
    expect(me.body.data.emailVerified).toBe(true);
    const again = await t.call('POST', '/api/auth/verify-email', { body: { token }, headers: ip() });
    expect([again.status, again.body.error.code]).toEqual([400, 'invalid_token']);
  });

  it('sends a new link on request (signed in only, throttled, refused once verified)', async () => {
    const user = await makeUser(t.deps.db, { email: fresh(), language: 'tr' });
    const token = await t.tokenFor(user);
    expect((await t.call('POST', '/api/users/me/verify-email', { headers: ip() })).status).toBe(401);
    const first = await t.call('POST', '/api/users/me/verify-email', { token, headers: ip() });
    expect(first.status).toBe(200);
    expect((await t.call('POST', '/api/users/me/verify-email', { token, headers: ip() })).status).toBe(200);
    const third = await t.call('POST', '/api/users/me/verify-email', { token, headers: ip() });
    expect([third.status, third.body.error.code]).toEqual([429, 'too_many_requests']);
    const mails = await deliver();
    expect(mails).toHaveLength(2);
    expect(mails[0].parsed.subject).toBe('TaskReward için e-posta adresini doğrula');
    // only the latest link works
    expect(
      (
        await t.call('POST', '/api/auth/verify-email', {
          body: { token: linkIn(mails[0], '/verify-email').token },
          headers: ip(),
        })
      ).status,
    ).toBe(400);
    const latest = linkIn(mails[1], '/verify-email').token;
    expect(
      (await t.call('POST', '/api/auth/verify-email', { body: { token: latest }, headers: ip() })).status,
    ).toBe(200);
    const done = await t.call('POST', '/api/users/me/verify-email', { token, headers: ip() });
    expect([done.status, done.body.error.code]).toEqual([409, 'email_already_verified']);
  });

  it('makes a changed address unverified again', async () => {
    const user = await makeUser(t.deps.db, { email: fresh(), email_verified_at: new Date().toISOString() });
    const res = await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { name: user.name, email: fresh(), role: 'user', status: 'active' },
    });
    expect(res.status).toBe(200);
    const row = await t.deps.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('_id', '=', user._id)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeNull();
  });

  it('refuses a withdrawal from an unverified address when the setting asks for it', async () => {
    const user = await makeUser(t.deps.db, { email: fresh() });
    await fund(t.deps.db, user._id, 10_000);
    const token = await t.tokenFor(user);
    const body = {
      amount: 50,
      paymentMethod: 'papara',
      accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
    };
    const on = await t.call('PUT', '/api/settings', {
      token: adminToken,
      body: { payment: { requireVerifiedEmail: true } },
    });
    expect(on.status).toBe(200);
    expect(on.body.data.payment.requireVerifiedEmail).toBe(true);
    try {
      const refused = await t.call('POST', '/api/withdraws', { token, body });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'email_not_verified']);
      const balance = await t.deps.db
        .selectFrom('users')
        .select('balance')
        .where('_id', '=', user._id)
        .executeTakeFirstOrThrow();
      expect(Number(balance.balance)).toBe(10_000);
      await t.deps.db
        .updateTable('users')
        .set({ email_verified_at: new Date().toISOString() })
        .where('_id', '=', user._id)
        .execute();
      expect((await t.call('POST', '/api/withdraws', { token, body })).status).toBe(201);
    } finally {
      await t.call('PUT', '/api/settings', {
        token: adminToken,
        body: { payment: { requireVerifiedEmail: false } },
      });
    }
  });

  it('lets only an admin change the setting, and takes only a boolean', async () => {
    const user = await makeUser(t.deps.db);
    const userToken = await t.tokenFor(user);
    expect(
      (
        await t.call('PUT', '/api/settings', {
          token: userToken,
          body: { payment: { requireVerifiedEmail: true } },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.call('PUT', '/api/settings', {
          token: adminToken,
          body: { payment: { requireVerifiedEmail: 'yes' } },
        })
      ).status,
    ).toBe(422);
    expect((await t.call('GET', '/api/settings')).body.data.payment.requireVerifiedEmail).toBe(false);
  });
});

describe('mails about reviews and payouts', () => {
  let worker: UserRow;
  let workerToken: string;
  beforeAll(async () => {
    worker = await makeUser(t.deps.db, { email: fresh(), name: 'Mehmet', language: 'tr' });
    workerToken = await t.tokenFor(worker);
  });

  it('mails an approval with the amount in the site format, and the inbox keeps the event', async () => {
    const taskId = await makeTask(t.deps.db, { reward: 123_450, title: 'Uygulamayı değerlendir' });
    const { submissionId } = await makePendingSubmission(t.deps.db, worker._id, { taskId, reward: 123_450 });
    const res = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: { status: 'approved', feedback: 'Thanks' },
    });
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    const [mail] = await deliver();
    expect(formatKurus(123_450)).toBe(formatMoney(1234.5));
    expect(mail.parsed.subject).toBe(`Kanıtın onaylandı: ${formatMoney(1234.5)}`);
    expect(mail.parsed.text).toContain('Uygulamayı değerlendir');
    expect(mail.parsed.html).toContain(formatMoney(1234.5));
    const inbox = await t.call('GET', '/api/notifications', { token: workerToken });
    expect(inbox.body.data.items[0]).toMatchObject({ type: 'isAccepted', ref: submissionId });
  });

  it('mails a rejection with its reason and a rejected withdrawal, in English for an English account', async () => {
    const en = await makeUser(t.deps.db, { email: fresh(), name: 'Jane', language: 'en' });
    const { submissionId } = await makePendingSubmission(t.deps.db, en._id, { reward: 500 });
    await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: {
        status: 'rejected',
        feedback: 'No screenshot <b>here</b>',
        rejectionReason: 'irrelevant_evidence',
      },
    });
    await fund(t.deps.db, en._id, 10_000);
    const wid = await makeWithdrawal(t.deps.db, en._id, { amount: 5000 });
    await t.call('PUT', `/api/admin/withdraws/${wid}/reject`, {
      token: adminToken,
      body: { reason: 'Wrong IBAN' },
    });
    const mails = await deliver();
    expect(mails.map((m) => m.parsed.subject)).toEqual([
      'Your proof for "Uygulamayı değerlendir" was rejected',
      `Your withdrawal of ${formatMoney(50)} was rejected`,
    ]);
    expect(mails[1].parsed.text).toContain('Reason: Wrong IBAN');
    // what an admin typed is text in the HTML part, never markup
    expect(mails[0].parsed.html).not.toContain('<b>');
  });

  it('keeps a task title with line breaks inside the subject: no injected header or recipient', async () => {
    const en = await makeUser(t.deps.db, { email: fresh(), name: 'Ada', language: 'en' });
    // stored as it is, as if some path let it in: the mail must not trust its own data
    const taskId = await makeTask(t.deps.db, {
      title: 'Rate\r\nBcc: victim@example.test\r\nX-Injected: yes\nSubject: pwned',
      reward: 500,
    });
    const { submissionId } = await makePendingSubmission(t.deps.db, en._id, { taskId, reward: 500 });
    const review = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: { status: 'rejected', feedback: 'No', rejectionReason: 'irrelevant_evidence' },
    });
    expect(review.status).toBe(200);
    const [mail] = await deliver();
    expect(mail.recipients).toEqual([en.email]);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.headers.has('x-injected')).toBe(false);
    expect(mail.parsed.subject).toBe(
      'Your proof for "Rate Bcc: victim@example.test X-Injected: yes Subject: pwned" was rejected',
    );
    const headers = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/));
    expect(headers).not.toMatch(/^(Bcc|X-Injected|Subject: pwned)/im);
  });

  it('mails a paid withdrawal, and nothing to an account that turned mails off (the inbox still gets it)', async () => {
    await fund(t.deps.db, worker._id, 20_000);
    const paid = await makeWithdrawal(t.deps.db, worker._id, { amount: 7500 });
    await t.call('PUT', `/api/admin/withdraws/${paid}/approve`, { token: adminToken });
    const [mail] = await deliver();
    expect(mail.parsed.subject).toBe(`${formatMoney(75)} tutarındaki çekim talebin ödendi`);

    const off = await t.call('PUT', '/api/users/me', {
      token: workerToken,
      body: { name: 'Mehmet', emailNotifications: false },
    });
    expect([off.status, off.body.data.emailNotifications]).toEqual([200, false]);
    const quiet = await makeWithdrawal(t.deps.db, worker._id, { amount: 5000 });
    await t.call('PUT', `/api/admin/withdraws/${quiet}/approve`, { token: adminToken });
    expect(await deliver()).toEqual([]);
    const inbox = await t.call('GET', '/api/notifications', { token: workerToken });
    expect(inbox.body.data.items[0]).toMatchObject({ type: 'acceptedWithdraw', ref: quiet });
  });

  it('changes the mail language from the profile and refuses unknown values', async () => {
    const bad = await t.call('PUT', '/api/users/me', {
      token: workerToken,
      body: { name: 'Mehmet', language: 'de' },
    });
    expect(bad.status).toBe(422);
    const ok = await t.call('PUT', '/api/users/me', {
      token: workerToken,
      body: { name: 'Mehmet', language: 'en', role: 'admin' },
    });
    expect(ok.body.data).toMatchObject({ language: 'en', role: 'user' });
  });
});

describe('the outbox job', () => {
  it('retries with backoff while the server refuses, then sends once, and reports each run', async () => {
    const runs: { ok: boolean; counts: Record<string, number> }[] = [];
    const off = onMailJobRun((o) => runs.push(o));
    try {
      const user = await makeUser(t.deps.db, { email: fresh() });
      sink.mode = 'refuse';
      await t.call('POST', '/api/users/me/verify-email', { token: await t.tokenFor(user), headers: ip() });
      await sendDueMail(t.deps);
      const row = await t.deps.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('user_id', '=', user._id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', lease_until: null });
      expect(Number(row.attempts)).toBe(1);
      expect(row.last_error).toMatch(/451/);
      expect(Date.parse(row.next_attempt_at) - Date.now()).toBeGreaterThan(20_000);
      // not due yet: a run now sends nothing
      sink.mode = 'accept';
      expect(await deliver()).toEqual([]);
      await t.deps.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: new Date(0).toISOString() })
        .where('_id', '=', row._id)
        .execute();
      const mails = await deliver();
      expect(mails.map((m) => m.recipients)).toEqual([[user.email]]);
      expect(mails[0].parsed.messageId).toContain(row._id);
      expect(await deliver()).toEqual([]);
      expect(runs.map((r) => r.counts)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ retried: 1 }),
          expect.objectContaining({ sent: 1 }),
        ]),
      );
      expect(runs.every((r) => r.ok)).toBe(true);
    } finally {
      off();
      sink.mode = 'accept';
    }
  });
});
