// Lock pressure: another process holds SQLite's write lock while clients keep writing and
// reading. Writes get a clean 503 with Retry-After (never a 500, never a hang), reads go on,
// a refused write leaves nothing behind, and once the lock is gone the same requests
// (same Idempotency-Key) succeed exactly once.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type RequestSpec, send } from '../bench/load';
import { FULL } from './scale';
import { ADMIN, runDoctor, type ServerProcess, startServerProcess } from './server';

const USERS = 6;
const HOLD_MS = FULL ? 8000 : 3000;
const START_BALANCE_TL = 500;

let server: ServerProcess;
let adminToken: string;
const users: { id: string; token: string }[] = [];

const json = (method: string, path: string, token: string | null, body?: unknown): RequestSpec => ({
  method,
  path,
  headers: {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});
const parse = (a: Answer) => JSON.parse(a.body.toString()) as Record<string, unknown>;

beforeAll(async () => {
  server = await startServerProcess();
  const agent = new http.Agent({ keepAlive: true });
  const login = await send(server.url, json('POST', '/api/auth/login', null, ADMIN), agent);
  adminToken = parse(login).token as string;
  for (let i = 0; i < USERS; i++) {
    const reg = await send(
      server.url,
      json('POST', '/api/auth/register', null, {
        name: `Lock User ${i}`,
        email: `lock${i}@faults.test`,
        password: 'user-pass-1',
      }),
      agent,
    );
    expect(reg.status).toBe(201);
    const body = parse(reg) as { token: string; data: { _id: string } };
    const put = await send(
      server.url,
      json('PUT', `/api/admin/users/${body.data._id}`, adminToken, {
        name: `Lock User ${i}`,
        email: `lock${i}@faults.test`,
        balance: START_BALANCE_TL,
      }),
      agent,
    );
    expect(put.status).toBe(200);
    users.push({ id: body.data._id, token: body.token });
  }
  agent.destroy();
});
afterAll(async () => {
  await server?.stop();
});

/** Another process: opens the database, takes the write lock, holds it, then lets go. */
function holdWriteLock(file: string, ms: number): Promise<{ child: ChildProcess; released: Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('lock-holder', '1', 'now')").run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('ROLLBACK'); db.close(); process.stdout.write('released\\n'); }, ${ms});
  `;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const released = new Promise<void>((resolve) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('released')) resolve();
    });
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      if (out.includes('locked')) resolve({ child, released });
    });
    child.once('exit', (code) => {
      if (!out.includes('locked')) reject(new Error(`the lock holder exited with ${code}`));
    });
  });
}

interface Sent {
  kind: 'withdraw' | 'start' | 'settings' | 'balance' | 'read-tasks' | 'read-me' | 'read-withdraws';
  user: number;
  key?: string;
  amountTl?: number;
  answer: Answer;
}

describe('another process holding the write lock', () => {
  it('gets writers a clean 503 with Retry-After, keeps readers answered, and loses nothing', async () => {
    // a task to start, made before the lock
    const task = await send(
      server.url,
      json('POST', '/api/tasks', adminToken, {
        title: 'Lock pressure task',
        description: 'Follow the steps and upload a screenshot of the result',
        category: 'social_media',
        reward: 5,
        difficulty: 'easy',
        maxCompletions: 100,
        requiredProof: 'screenshot',
        status: 'active',
      }),
    );
    expect(task.status, task.body.toString()).toBe(201);
    const taskId = (parse(task).data as { _id: string })._id;

    const holder = await holdWriteLock(join(server.dataDir, 'taskreward.db'), HOLD_MS);
    const lockedAt = performance.now();
    const sent: Sent[] = [];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    let n = 0;
    const client = async (u: number) => {
      const user = users[u];
      while (performance.now() - lockedAt < HOLD_MS - 300) {
        const i = n++;
        const pick = i % 7;
        let spec: RequestSpec;
        let extra: Partial<Sent> = {};
        let kind: Sent['kind'];
        if (pick === 0) {
          const key = `lock-${u}-${i}`;
          const amountTl = 20 + (i % 5);
          spec = json('POST', '/api/withdraws', user.token, {
            amount: amountTl,
            paymentMethod: 'papara',
            accountDetails: { fullName: `Lock User ${u}`, accountNumber: '1234567890' },
          });
          spec.headers = { ...spec.headers, 'idempotency-key': key };
          extra = { key, amountTl };
          kind = 'withdraw';
        } else if (pick === 1) {
          spec = json('POST', `/api/tasks/${taskId}/start`, user.token, {});
          kind = 'start';
        } else if (pick === 2) {
          spec = json('PUT', '/api/settings', adminToken, { site: { name: `Locked ${i}` } });
          kind = 'settings';
        } else if (pick === 3) {
          spec = json('GET', '/api/tasks?sort=newest', user.token);
          kind = 'read-tasks';
        } else if (pick === 4) {
          spec = json('GET', '/api/users/me', user.token);
          kind = 'read-me';
        } else if (pick === 5) {
          spec = json('GET', '/api/withdraws', user.token);
          kind = 'read-withdraws';
        } else {
          spec = json('PUT', `/api/admin/users/${user.id}`, adminToken, {
            name: `Lock User ${u} (${i})`,
            email: `lock${u}@faults.test`,
          });
          kind = 'balance';
        }
        const answer = await Promise.race([
          send(server.url, spec, agent),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error(`${kind} hung for 5 s under the lock`)), 5000),
          ),
        ]);
        sent.push({ kind, user: u, answer, ...extra });
      }
    };
    await Promise.all(users.map((_, u) => client(u)));
    await holder.released;
    agent.destroy();

    const writes = sent.filter((s) => !s.kind.startsWith('read'));
    const reads = sent.filter((s) => s.kind.startsWith('read'));
    const busy = writes.filter((s) => s.answer.status === 503);
    const slowestWrite = Math.max(...writes.map((s) => s.answer.ms));
    const slowestRead = Math.max(...reads.map((s) => s.answer.ms));
    console.log(
      `lock held ${HOLD_MS} ms: ${sent.length} requests (${writes.length} writes, ${reads.length} reads); ` +
        `${busy.length} writes answered 503; slowest write ${slowestWrite.toFixed(0)} ms, ` +
        `slowest read ${slowestRead.toFixed(0)} ms`,
    );

    expect(sent.every((s) => s.answer.status < 500 || s.answer.status === 503)).toBe(true);
    const other = writes.filter((s) => s.answer.status !== 503);
    expect(
      other.map((s) => `${s.kind} ${s.answer.status} ${s.answer.body.toString().slice(0, 120)}`),
    ).toEqual([]); // every write met the lock
    expect(busy.length).toBeGreaterThan(10);
    for (const s of busy) {
      expect(s.answer.headers['retry-after']).toBe('1');
      expect(parse(s.answer)).toMatchObject({ success: false, error: { code: 'busy' } });
    }
    // readers are not held up behind the lock
    expect(reads.every((s) => s.answer.status === 200)).toBe(true);
    expect(reads.length).toBeGreaterThan(10);
    // the event loop is never held long: a write waits the 100 ms busy timeout at most, once a second
    expect(slowestWrite).toBeLessThan(1500);

    // nothing of a refused write happened: no withdrawal, no hold, no start, no settings change
    const db = new Database(join(server.dataDir, 'taskreward.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM withdrawals').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM user_tasks').get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT count(*) AS n FROM settings WHERE key = 'lock-holder'").get()).toEqual({
        n: 0,
      });
      expect(db.prepare('SELECT count(*) AS n FROM idempotency').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    // after the lock: the same withdrawal requests, same keys, succeed once each
    await new Promise((r) => setTimeout(r, 1100));
    const refused = busy.filter((s) => s.kind === 'withdraw');
    const paid = new Map<number, number>();
    for (const s of refused) {
      const total = (paid.get(s.user) ?? 0) + (s.amountTl ?? 0);
      const retry = json('POST', '/api/withdraws', users[s.user].token, {
        amount: s.amountTl,
        paymentMethod: 'papara',
        accountDetails: { fullName: `Lock User ${s.user}`, accountNumber: '1234567890' },
      });
      retry.headers = { ...retry.headers, 'idempotency-key': s.key ?? '' };
      const again = await send(server.url, retry);
      if (total <= START_BALANCE_TL) {
        expect(again.status, again.body.toString()).toBe(201);
        paid.set(s.user, total);
        // and a replay of it moves nothing more
        const replay = await send(server.url, retry);
        expect(replay.headers['idempotent-replayed']).toBe('true');
      }
    }
    for (const [u, user] of users.entries()) {
      const me = parse(await send(server.url, json('GET', '/api/users/me', user.token)));
      const balance = (me.data as { balance: number }).balance;
      expect(balance).toBeCloseTo(START_BALANCE_TL - (paid.get(u) ?? 0), 2);
    }
    const started = await send(server.url, json('POST', `/api/tasks/${taskId}/start`, users[0].token, {}));
    expect(started.status).toBeLessThan(300);

    await server.stop();
    const doctor = runDoctor(server.dataDir);
    expect(doctor.status, doctor.output).toBe(0);
    console.log(
      `after the lock: ${[...paid.values()].length} users' refused withdrawals retried with their keys and paid once`,
    );
  });
});
