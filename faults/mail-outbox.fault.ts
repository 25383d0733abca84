// The mail outbox under a kill: registrations queue their verification mails while a slow real
// SMTP server (smtp-server) takes them one by one; the server is killed with SIGKILL (its whole
// process group) in the middle of sending, then restarted on the same data folder. Every mail
// queued before the kill must arrive after the restart, each recipient getting one message: a
// copy sent again (the one whose answer the kill cut off) carries the same Message-ID, so a
// mailbox shows it once, and no mail goes out twice under two identities.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SmtpSink } from '../src-server/testing/smtp-sink';
import { FULL, prng, seedFromEnv } from './scale';
import { freshDataDir, type ServerProcess, startServerProcess } from './server';

const MAILS = FULL ? 40 : 16;
const ANSWER_DELAY_MS = 300;
const random = prng(seedFromEnv());

const sink = new SmtpSink();
let server: ServerProcess | null = null;
const dataDir = freshDataDir('taskreward-mail-kill-');
const env = () => ({
  SMTP_URL: sink.url,
  MAIL_FROM: '"TaskReward" <no-reply@faults.test>',
  PUBLIC_URL: 'http://taskreward.faults.test',
  // each registration comes from its own address, within the registration throttle
  TRUST_PROXY: '1',
});

beforeAll(async () => {
  await sink.start();
});
afterAll(async () => {
  await server?.stop();
  await sink.stop();
});

async function register(url: string, i: number): Promise<void> {
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.77.${i >> 8}.${i & 255}` },
    body: JSON.stringify({ name: `Mail ${i}`, email: `mail${i}@faults.test`, password: 'mail-pass-1' }),
  });
  expect(res.status).toBe(201);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('sends every mail queued before a SIGKILL after the restart, none under two identities', async () => {
  // the first mail waits for its answer while every registration queues its own
  sink.pause();
  server = await startServerProcess({ dataDir, env: env(), group: true });
  const url = server.url;
  // every registration answered 201: its mail is in the outbox, committed with the account
  await Promise.all(Array.from({ length: MAILS }, (_, i) => register(url, i)));
  // then a slow server: the outbox is under way, far from done, and is killed at a random
  // moment, most likely while it waits for an answer
  sink.delayMs = ANSWER_DELAY_MS;
  sink.resume();
  await expect.poll(() => sink.mails.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
  await sleep(Math.floor(random() * ANSWER_DELAY_MS));
  await server.kill();
  const beforeKill = sink.mails.length;
  expect(beforeKill).toBeLessThan(MAILS);

  // restarted on the same folder and the same SMTP server, now quick to answer
  sink.delayMs = 0;
  server = await startServerProcess({ dataDir, env: env(), group: true });
  const recipients = Array.from({ length: MAILS }, (_, i) => `mail${i}@faults.test`);
  await expect
    .poll(() => recipients.filter((r) => sink.to(r).length > 0).length, { timeout: 60_000, interval: 100 })
    .toBe(MAILS);
  // a moment for a late second copy to show itself
  await sleep(1500);

  const received = sink.mails.length;
  const ids = new Map<string, Set<string>>();
  const copies = new Map<string, number>();
  for (const mail of sink.mails) {
    const id = mail.parsed.messageId ?? '';
    expect(id).not.toBe('');
    for (const to of mail.recipients) {
      const set = ids.get(to) ?? new Set<string>();
      set.add(id);
      ids.set(to, set);
    }
    copies.set(id, (copies.get(id) ?? 0) + 1);
  }
  // every recipient has exactly one message (one Message-ID), the verification link of its account
  expect([...ids.keys()].sort()).toEqual([...recipients].sort());
  for (const [to, set] of ids) expect(set.size, to).toBe(1);
  for (const mail of sink.mails) expect(mail.parsed.text).toMatch(/\/verify-email\?token=[A-Za-z0-9_-]+/);
  // at most the one mail in flight at the kill arrived twice, and then with its Message-ID
  const resent = [...copies.values()].filter((n) => n > 1);
  expect(resent.length).toBeLessThanOrEqual(1);
  expect(received).toBeLessThanOrEqual(MAILS + 1);
  console.log(
    `mail outbox kill: ${MAILS} queued, ${beforeKill} arrived before the SIGKILL, ${received} copies in all, ` +
      `${resent.length} sent again with its own Message-ID`,
  );

  // the outbox holds them all as sent, once each
  await server.stop();
  server = null;
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(`${dataDir}/taskreward.db`, { readonly: true });
  try {
    const rows = db.prepare('SELECT status, COUNT(*) AS n FROM mail_outbox GROUP BY status').all() as {
      status: string;
      n: number;
    }[];
    expect(rows).toEqual([{ status: 'sent', n: MAILS }]);
  } finally {
    db.close();
  }
});
