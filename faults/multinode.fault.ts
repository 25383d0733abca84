// Many nodes: three app nodes (the real built server as child processes) on one
// PostgreSQL and one object store, the clients spread across them the way a load balancer would,
// and one node killed with SIGKILL at random moments and restarted. No 5xx may come from a node
// that was not killed during the request; every write a client saw acknowledged must be in the
// database once (none lost), no Idempotency-Key may make two withdrawals, no proof may be paid
// twice (none doubled), and `doctor` must pass over the database and the bucket afterwards.
// Needs TEST_DATABASE_URL (a PostgreSQL the suite may create databases on); without one it is
// skipped with a hint, and with CI set that is a failure.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { send } from '../bench/load';
import { startS3Server } from '../src-server/testing/s3-server';
import { call, pngProof, type Reply, uploadProof } from './crash-helpers';
import { freshPostgresDatabase } from './fault-database';
import { FULL, prng, scaled, seedFromEnv } from './scale';
import { ADMIN, SERVER_ENTRY, type ServerProcess, startServerProcess } from './server';

const NODES = 3;
const USERS = 18;
const ADMINS = 3;
const TASKS = 12;
const DURATION_MS = scaled(150_000, 24_000);
/**
 * Time between kills: a node is down for a moment this often. The short run waits less, so
 * that its three kills fit in 24 s even when a restart is slow on a busy machine.
 */
const KILL_EVERY_MS: [number, number] = FULL ? [3_000, 7_000] : [2_000, 3_500];

const PG_URL = process.env.TEST_DATABASE_URL || '';
const BUNDLE = SERVER_ENTRY.replace(/main\.cjs$/, `multinode-run-${process.pid}.cjs`);

class Failure extends Error {}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** One app node: a fixed port and data folder kept across restarts; an epoch bumped by each kill. */
interface Node {
  index: number;
  port: number;
  dataDir: string;
  process: ServerProcess | null;
  up: boolean;
  epoch: number;
  agent: http.Agent;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

it.skipIf(!PG_URL && !process.env.CI)(
  `${NODES} nodes on one PostgreSQL and one object store, one killed at random, for ${DURATION_MS / 1000} s: no 5xx from the others, nothing lost or doubled`,
  async () => {
    if (!PG_URL)
      throw new Error('TEST_DATABASE_URL is not set: this suite needs a PostgreSQL (. .ci/postgres.sh)');
    const seed = seedFromEnv();
    const rand = prng(seed);
    console.log(
      `multinode: seed ${seed} (FAULTS_SEED=${seed} replays its choices)${FULL ? ', full length' : ', reduced'}`,
    );
    const build = spawnSync(process.execPath, ['build/build.mjs', '--if-needed'], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
    copyFileSync(SERVER_ENTRY, BUNDLE);
    cleanups.push(() => rmSync(BUNDLE, { force: true }));

    // ---- the shared parts: a fresh database, a bucket, one token secret ----
    const database = await freshPostgresDatabase('taskreward_multinode');
    cleanups.push(() => database.drop());
    const databaseUrl = database.url;
    const store = await startS3Server({ bucket: 'taskreward-multinode' });
    cleanups.push(() => store.close());
    const sharedEnv: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '6',
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: '1',
      ...store.env,
    };

    // ---- three nodes started at once on the empty database: migrations and the first admin once ----
    const nodes: Node[] = [];
    for (let i = 0; i < NODES; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), `taskreward-node${i}-`));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      nodes.push({
        index: i,
        port: await freePort(),
        dataDir,
        process: null,
        up: false,
        epoch: 0,
        agent: new http.Agent({ keepAlive: true, maxSockets: 64 }),
      });
    }
    const start = async (node: Node) => {
      node.process = await startServerProcess({
        dataDir: node.dataDir,
        port: node.port,
        env: sharedEnv,
        command: { file: process.execPath, args: [BUNDLE, 'serve'] },
        startTimeoutMs: 60_000,
      });
      node.agent.destroy();
      node.agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
      node.up = true;
    };
    cleanups.push(async () => {
      for (const n of nodes) await n.process?.kill();
    });
    await Promise.all(nodes.map(start));
    const url = (n: Node) => `http://127.0.0.1:${n.port}`;

    // ---- requests as through a load balancer: a live node, another one when it dies mid-request ----
    const counts = {
      requests: 0,
      killedInFlight: 0,
      retried: 0,
      kills: 0,
      statuses: {} as Record<number, number>,
    };
    const serverErrors: string[] = [];
    let ip = 0;
    const liveNode = (prefer: number): Node => {
      for (let k = 0; k < NODES; k++) {
        const n = nodes[(prefer + k) % NODES];
        if (n.up) return n;
      }
      throw new Failure('no node is up');
    };
    /** Sends until a node answers; a request cut by a kill is sent again to another node. */
    async function request(
      prefer: number,
      what: string,
      send1: (node: Node) => Promise<Reply>,
      options: { retry: boolean } = { retry: true },
    ): Promise<Reply | null> {
      for (let attempt = 0; attempt < 8; attempt++) {
        const node = liveNode(prefer + attempt);
        const epoch = node.epoch;
        counts.requests++;
        try {
          const reply = await send1(node);
          counts.statuses[reply.status] = (counts.statuses[reply.status] ?? 0) + 1;
          if (reply.status >= 500 && node.epoch === epoch)
            serverErrors.push(`${what} on node ${node.index}: ${reply.status} ${reply.text.slice(0, 200)}`);
          return reply;
        } catch (err) {
          if (node.epoch === epoch && node.up)
            throw new Failure(`${what}: node ${node.index} was not killed but the request failed: ${err}`);
          counts.killedInFlight++;
          if (!options.retry) return null;
          counts.retried++;
        }
      }
      throw new Failure(`${what}: no node answered in 8 attempts`);
    }
    const json = (
      prefer: number,
      what: string,
      method: string,
      path: string,
      o: { token?: string; body?: unknown; key?: string } = {},
      retry = true,
    ) => {
      const forwarded = `10.9.${(ip >> 8) & 255}.${(ip++ & 255) + 1}`;
      return request(
        prefer,
        what,
        (node) =>
          send(
            url(node),
            {
              method,
              path,
              headers: {
                'X-Forwarded-For': forwarded,
                ...(o.token ? { Authorization: `Bearer ${o.token}` } : {}),
                ...(o.key ? { 'Idempotency-Key': o.key } : {}),
                ...(o.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
              },
              body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
            },
            node.agent,
          ).then((a) => {
            const text = a.body.toString('utf8');
            let body: Reply['body'] = {};
            try {
              body = JSON.parse(text);
            } catch {
              // kept as text
            }
            return { status: a.status, body, text, replayed: a.headers['idempotent-replayed'] === 'true' };
          }),
        { retry },
      );
    };

    // ---- setup (no kills yet): admins, users with balances, tasks ----
    const login = await call(url(nodes[0]), 'POST', '/api/auth/login', {
      body: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(login.status, login.text).toBe(200);
    const adminTokens = [login.body.token as string];
    const users: { id: string; token: string }[] = [];
    for (let i = 0; i < ADMINS - 1 + USERS; i++) {
      const n = nodes[i % NODES];
      const body = { name: `Node user ${i}`, email: `node-${i}@multinode.test`, password: `node-pass-${i}` };
      const r = await call(url(n), 'POST', '/api/auth/register', { body });
      expect(r.status, r.text).toBe(201);
      const id = r.body.data?._id as string;
      if (i < ADMINS - 1) {
        const p = await call(url(n), 'PUT', `/api/admin/users/${id}`, {
          token: adminTokens[0],
          body: { name: body.name, email: body.email, role: 'admin' },
        });
        expect(p.status, p.text).toBe(200);
        adminTokens.push(r.body.token as string);
      } else {
        const balance = 100 + Math.floor(rand() * 200);
        const p = await call(url(n), 'PUT', `/api/admin/users/${id}`, {
          token: adminTokens[0],
          body: { name: body.name, email: body.email, balance },
        });
        expect(p.status, p.text).toBe(200);
        users.push({ id, token: r.body.token as string });
      }
    }
    const tasks: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      const r = await call(url(nodes[i % NODES]), 'POST', '/api/tasks', {
        token: adminTokens[0],
        body: {
          title: `Düğüm görevi ${i}`,
          description: `Multi-node task ${i}`,
          reward: 1 + Math.floor(rand() * 20),
          maxCompletions: 500,
          category: ['survey', 'video', 'review', 'game'][i % 4],
        },
      });
      expect(r.status, r.text).toBe(201);
      tasks.push(r.body.data?._id as string);
    }

    // ---- the clients' model of what was acknowledged ----
    const approved = new Set<string>();
    const rejected = new Set<string>();
    const withdrawalOfKey = new Map<string, string>(); // key -> withdrawal id acknowledged
    const unacknowledgedKeys = new Map<string, string>(); // key -> user id
    const withdrawalDecisions = new Map<string, 'approved' | 'rejected'>();
    let acknowledgedWrites = 0;
    const deadline = Date.now() + DURATION_MS;

    const userLoop = async (u: { id: string; token: string }, w: number) => {
      const r = prng(seed ^ Math.imul(w + 1, 0x9e3779b1));
      let n = 0;
      while (Date.now() < deadline) {
        const choice = r();
        const task = tasks[Math.floor(r() * tasks.length)];
        if (choice < 0.35) {
          await json(w, 'tasks list', 'GET', '/api/tasks?limit=10', { token: u.token });
          await json(w, 'me', 'GET', '/api/users/me', { token: u.token });
        } else if (choice < 0.75) {
          const started = await json(
            w,
            'start',
            'POST',
            `/api/tasks/${task}/start`,
            { token: u.token },
            false,
          );
          if (started && started.status === 201) acknowledgedWrites++;
          const sent = await request(
            w,
            'upload',
            (node) => uploadProof(url(node), u.token, task, pngProof(w * 100_000 + n++), node.agent),
            { retry: false },
          );
          if (sent && sent.status === 201) acknowledgedWrites++;
        } else {
          const key = `mn-${w}-${n++}`;
          unacknowledgedKeys.set(key, u.id);
          const body = {
            amount: 50,
            paymentMethod: 'papara',
            accountDetails: { fullName: `Node User ${w}`, accountNumber: String(1_000_000_000 + w) },
          };
          const res = await json(w, 'withdraw', 'POST', '/api/withdraws', { token: u.token, body, key });
          if (res && res.status === 201) {
            unacknowledgedKeys.delete(key);
            withdrawalOfKey.set(key, res.body.data?._id as string);
            acknowledgedWrites++;
          }
        }
      }
    };
    const adminLoop = async (token: string, w: number) => {
      const r = prng(seed ^ Math.imul(w + 101, 0x85ebca6b));
      let n = 0;
      while (Date.now() < deadline) {
        if (r() < 0.6) {
          const page = await json(
            w,
            'pending proofs',
            'GET',
            '/api/admin/submissions?status=pending&limit=10',
            {
              token,
            },
          );
          const items = (page?.body.data?.items ?? []) as { _id: string }[];
          if (items.length === 0) {
            await new Promise((res) => setTimeout(res, 50));
            continue;
          }
          const id = items[Math.floor(r() * Math.min(3, items.length))]._id;
          const ok = r() < 0.7;
          const body = ok
            ? { status: 'approved', feedback: 'task completed successfully' }
            : { status: 'rejected', feedback: 'not this time', rejectionReason: 'no_share' };
          const res = await json(w, 'review', 'PUT', `/api/submissions/${id}/review`, {
            token,
            body,
            key: `rv-${w}-${n++}`,
          });
          if (res?.status === 200) {
            (ok ? approved : rejected).add(id);
            acknowledgedWrites++;
          }
        } else {
          const page = await json(
            w,
            'pending withdrawals',
            'GET',
            '/api/admin/withdraws?status=pending&limit=10',
            {
              token,
            },
          );
          const items = (page?.body.data?.items ?? []) as { _id: string }[];
          if (items.length === 0) continue;
          const id = items[Math.floor(r() * Math.min(3, items.length))]._id;
          const ok = r() < 0.6;
          const res = await json(
            w,
            'withdrawal decision',
            'PUT',
            `/api/admin/withdraws/${id}/${ok ? 'approve' : 'reject'}`,
            { token, body: ok ? {} : { reason: 'account details do not match' }, key: `wd-${w}-${n++}` },
          );
          if (res?.status === 200) {
            withdrawalDecisions.set(id, ok ? 'approved' : 'rejected');
            acknowledgedWrites++;
          }
        }
      }
    };
    const killer = async () => {
      while (Date.now() < deadline - 2_000) {
        const [lo, hi] = KILL_EVERY_MS;
        await new Promise((res) => setTimeout(res, lo + rand() * (hi - lo)));
        if (Date.now() >= deadline - 2_000) break;
        const node = nodes[Math.floor(rand() * NODES)];
        node.up = false;
        node.epoch++;
        await node.process?.kill();
        counts.kills++;
        await new Promise((res) => setTimeout(res, 300 + rand() * 1200));
        await start(node);
      }
    };
    await Promise.all([
      ...users.map((u, i) => userLoop(u, i)),
      ...adminTokens.map((tok, i) => adminLoop(tok, USERS + i)),
      killer(),
    ]);

    // ---- after: the nodes stop, doctor and the database against the model ----
    for (const n of nodes) {
      await n.process?.stop();
      n.agent.destroy();
    }
    const doctor = spawnSync(process.execPath, [BUNDLE, 'doctor'], {
      env: { ...process.env, ...sharedEnv, DATA_DIR: nodes[0].dataDir },
      encoding: 'utf8',
    });
    const lost: string[] = [];
    const doubled: string[] = [];
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const rows = async <T>(text: string, values: unknown[] = []) =>
        (await db.query(text, values)).rows as T[];
      for (const id of approved) {
        const [s] = await rows<{ status: string; paid: string }>(
          `SELECT s.status, (SELECT count(*) FROM ledger l WHERE l.kind = 'reward' AND l.ref = s._id) AS paid
             FROM submissions s WHERE s._id = $1`,
          [id],
        );
        if (!s || Number(s.paid) !== 1 || s.status !== 'approved')
          lost.push(`approved proof ${id}: ${JSON.stringify(s)}`);
      }
      for (const id of rejected) {
        const [s] = await rows<{ status: string }>('SELECT status FROM submissions WHERE _id = $1', [id]);
        // an appeal may not change it here (no appeals in this mix)
        if (s?.status !== 'rejected') lost.push(`rejected proof ${id}: ${JSON.stringify(s)}`);
      }
      for (const [key, id] of withdrawalOfKey) {
        const [w] = await rows<{ amount: string; holds: string }>(
          `SELECT w.amount, (SELECT count(*) FROM ledger l WHERE l.kind = 'withdrawal_hold' AND l.ref = w._id) AS holds
             FROM withdrawals w WHERE w._id = $1`,
          [id],
        );
        if (!w || Number(w.amount) !== 5000 || Number(w.holds) !== 1)
          lost.push(`withdrawal ${id} (key ${key}): ${JSON.stringify(w)}`);
      }
      for (const [id, status] of withdrawalDecisions) {
        const [w] = await rows<{ status: string }>('SELECT status FROM withdrawals WHERE _id = $1', [id]);
        if (w?.status !== status) lost.push(`withdrawal ${id} decided ${status}: ${JSON.stringify(w)}`);
      }
      // no key made two withdrawals: per user, no more withdrawals than keys sent
      for (const u of users) {
        const [c] = await rows<{ n: string }>('SELECT count(*) AS n FROM withdrawals WHERE user_id = $1', [
          u.id,
        ]);
        const acknowledged = [...withdrawalOfKey.entries()].filter(([k]) =>
          k.startsWith(`mn-${users.indexOf(u)}-`),
        );
        const open = [...unacknowledgedKeys.values()].filter((id) => id === u.id).length;
        if (Number(c.n) > acknowledged.length + open)
          doubled.push(
            `user ${u.id}: ${c.n} withdrawals from ${acknowledged.length} acknowledged and ${open} unanswered keys`,
          );
      }
      for (const r of await rows<{ ref: string; n: string }>(
        "SELECT ref, count(*) AS n FROM ledger WHERE kind = 'reward' GROUP BY ref HAVING count(*) > 1",
      ))
        doubled.push(`proof ${r.ref} paid ${r.n} times`);
    } finally {
      await db.end();
    }

    console.log(
      [
        `multinode: ${NODES} nodes, ${users.length} users and ${adminTokens.length} admins for ${DURATION_MS / 1000} s, seed ${seed}`,
        `  requests ${counts.requests}, statuses ${JSON.stringify(counts.statuses)}`,
        `  kills ${counts.kills}; requests cut by a kill ${counts.killedInFlight} (sent again ${counts.retried})`,
        `  acknowledged writes ${acknowledgedWrites}: ${approved.size} approvals, ${rejected.size} rejections, ` +
          `${withdrawalOfKey.size} withdrawals, ${withdrawalDecisions.size} withdrawal decisions`,
        `  lost ${lost.length}, doubled ${doubled.length}, 5xx from nodes not killed ${serverErrors.length}`,
        `  doctor: exit ${doctor.status}`,
      ].join('\n'),
    );
    const replay = `seed ${seed} (FAULTS_SEED=${seed})`;
    expect(serverErrors, replay).toEqual([]);
    expect(lost, replay).toEqual([]);
    expect(doubled, replay).toEqual([]);
    expect(doctor.status, `${replay}\n${doctor.stdout}${doctor.stderr}`).toBe(0);
    // the run did what it is for
    expect(counts.kills, replay).toBeGreaterThanOrEqual(FULL ? 15 : 3);
    expect(approved.size, replay).toBeGreaterThan(0);
    expect(withdrawalOfKey.size, replay).toBeGreaterThan(0);
    expect(withdrawalDecisions.size, replay).toBeGreaterThan(0);
  },
);
