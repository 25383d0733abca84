// Test-only (never imported by the server): the move to PostgreSQL as an operator meets it, shared
// by the journey on the server bundle (move-journey.test.ts) and the single binary's checks. A
// folder made over HTTP with every kind of row and file, moved by the CLI into a database and a
// bucket, then served by two app nodes that must show what the folder's server showed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { DataFolder } from '../../storage/data-folder';
import { makeIban } from '../../testing/money-factories';
import { screenshot } from '../../testing/screenshots';
import {
  expectEveryKind,
  fillEveryKind,
  type Operator,
  OWNER,
  WORKERS,
  whatUsersSee,
} from '../backup-journey';

// biome-ignore lint/suspicious/noExplicitAny: the journey reads a few fields of JSON replies
type Json = any;

async function ok(url: string, method: string, path: string, token?: string, body?: unknown): Promise<Json> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function signIn(url: string, account: { email: string; password: string }): Promise<string> {
  return (await ok(url, 'POST', '/api/auth/login', undefined, account)).token as string;
}

/** A proof sent as a multipart form, as the web app sends it. */
function proofForm(task: string, png: Buffer): FormData {
  const f = new FormData();
  f.set('task', task);
  f.set('proofImage', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
  return f;
}

async function send(url: string, token: string, body: FormData): Promise<Json> {
  const res = await fetch(`${url}/api/submissions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body,
  });
  const json = await res.json().catch(() => null);
  if (res.status >= 300) throw new Error(`POST /api/submissions → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * What fillEveryKind leaves out: a task with automatic comments started by a worker (one comment
 * given out, the start in progress), withdrawals approved, rejected and pending, a message to
 * everyone in the inbox, read by one worker, and appeals decided both ways: one upheld (the proof
 * stays rejected) and one overturned (the proof approved and its reward paid, with a ledger row).
 */
export async function fillTheRest(op: Operator, data: string): Promise<void> {
  const server = await op.serve(data);
  try {
    const url = server.url;
    const owner = await signIn(url, OWNER);
    const workers = await Promise.all(WORKERS.map((w) => signIn(url, w)));
    const users = (await ok(url, 'GET', '/api/admin/users?limit=50', owner)).data;
    const list: Json[] = users.users ?? users.items ?? users;
    const second = list.find((u) => u.email === WORKERS[1].email);
    await ok(url, 'PUT', `/api/admin/users/${second._id}`, owner, {
      name: WORKERS[1].name,
      email: WORKERS[1].email,
      balance: 200,
    });
    const task = (
      await ok(url, 'POST', '/api/tasks', owner, {
        title: 'Comment on the post',
        description: 'Leave the comment you are given',
        reward: 3.25,
        maxCompletions: 5,
        automaticComments: ['Great post!', 'Thanks for sharing', 'Very useful'],
      })
    ).data._id as string;
    await ok(url, 'POST', `/api/tasks/${task}/start`, workers[0]);
    const withdrawals: string[] = [];
    for (const amount of [20, 30, 40]) {
      const made = await ok(url, 'POST', '/api/withdraws', workers[1], {
        amount,
        paymentMethod: 'iban',
        accountDetails: { fullName: WORKERS[1].name, accountNumber: makeIban() },
      });
      withdrawals.push(made.data._id);
    }
    for (const [i, decision] of (['uphold', 'overturn'] as const).entries()) {
      const appealed = (
        await ok(url, 'POST', '/api/tasks', owner, {
          title: `Appealed ${decision}`,
          description: 'Send a screenshot of the page',
          reward: 4.75,
          maxCompletions: 3,
        })
      ).data._id as string;
      await ok(url, 'POST', `/api/tasks/${appealed}/start`, workers[i]);
      const proof = (await send(url, workers[i], proofForm(appealed, await screenshot(40 + i)))).data
        ._id as string;
      await ok(url, 'PUT', `/api/submissions/${proof}/review`, owner, {
        status: 'rejected',
        feedback: 'The page is not shown',
        rejectionReason: 'irrelevant_evidence',
      });
      await ok(url, 'POST', `/api/submissions/${proof}/appeal`, workers[i], {
        message: 'The page is in the screenshot, please look again',
      });
      await ok(url, 'PUT', `/api/admin/submissions/${proof}/appeal`, owner, {
        decision,
        response: decision === 'overturn' ? 'You are right, approved' : 'It is still not the page',
      });
    }
    await ok(url, 'PUT', `/api/admin/withdraws/${withdrawals[0]}/approve`, owner, {});
    await ok(url, 'PUT', `/api/admin/withdraws/${withdrawals[1]}/reject`, owner, {
      reason: 'The account is closed',
    });
    await ok(url, 'POST', '/api/auth/send-notification', owner, {
      notificationType: 'customMessage',
      title: 'Welcome',
      message: 'New tasks every day',
      target: 'all',
    });
    // an admin's internal note on a worker, and the terms edited from their template
    await ok(url, 'POST', `/api/admin/users/${second._id}/notes`, owner, {
      body: 'Asked twice about the payout day; told Fridays.',
    });
    await ok(url, 'PUT', '/api/settings/legal/terms', owner, {
      tr: '# Kullanım koşulları\n\nGörevleri dürüstçe yap.',
    });
    const inbox = (await ok(url, 'GET', '/api/notifications', workers[0])).data;
    const first = (inbox.items ?? inbox)[0];
    await ok(url, 'PUT', `/api/notifications/${first._id ?? first.id}/read`, workers[0]);
  } finally {
    await server.stop();
  }
}

/**
 * Drops what changes by itself between two looks: the activity heartbeat a sign-in moves, the
 * expiry and signature of a file link.
 */
function steady(value: Json): Json {
  if (Array.isArray(value)) return value.map(steady);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'lastActive' && k !== 'last_active')
        .map(([k, v]) => [k, steady(v)]),
    );
  }
  // a signed file link carries its own expiry: the file it names is what must match
  if (typeof value === 'string') return value.replace(/\?exp=\d+&sig=[\w-]+$/, '');
  return value;
}

/** The admin screens' data: tasks, users, submissions, withdrawals, the dashboard, the audit log. */
export async function whatAdminsSee(url: string): Promise<Json> {
  const owner = await signIn(url, OWNER);
  const view: Json = {};
  for (const path of [
    '/api/tasks?limit=50',
    '/api/admin/users?limit=50',
    '/api/admin/submissions?limit=50',
    '/api/admin/withdraws?limit=50',
    '/api/admin/stats',
    '/api/admin/audit?limit=100',
    '/api/notifications',
  ]) {
    view[path] = steady((await ok(url, 'GET', path, owner)).data);
  }
  // the notes on each account, the legal texts, and the payout account a worker saved
  const users = view['/api/admin/users?limit=50'];
  for (const u of (users.users ?? users.items ?? users) as Json[]) {
    const path = `/api/admin/users/${u._id}/notes`;
    view[path] = steady((await ok(url, 'GET', path, owner)).data);
  }
  view['/api/settings/legal/terms'] = (await ok(url, 'GET', '/api/settings/legal/terms', owner)).data;
  const worker = await signIn(url, WORKERS[1]);
  view['/api/withdraws/account'] = (await ok(url, 'GET', '/api/withdraws/account', worker)).data;
  return view;
}

/** Every file of a folder with its sha256: the folder before and after must be the same. */
export function folderPrint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path, name);
      // SQLite's shared-memory index is rewritten by any reader, and an empty WAL is made by an
      // open and removed by the last close (or left by a killed one): neither holds data
      else if (!name.endsWith('-shm') && !(name.endsWith('-wal') && statSync(path).size === 0))
        out[name] = `${statSync(path).size} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  };
  walk(root, '');
  return out;
}

/**
 * The guard of the future for the tables: every table of the folder's SQLite schema (whatever
 * later changes add) has as many rows in the target as in the folder.
 */
export async function expectEveryTableMoved(data: string, databaseUrl: string): Promise<number> {
  const sqlite = new Database(new DataFolder(data).dbFile, { readonly: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = (
      sqlite
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
        )
        .all() as { name: string }[]
    )
      .map((r) => r.name)
      // the search index's own tables: the twin indexes the tasks its own way
      .filter((n) => !n.startsWith('tasks_fts'));
    expect(tables.length).toBeGreaterThan(10);
    for (const t of tables) {
      const here = (sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n;
      const there = await client.query(`SELECT count(*)::int AS n FROM "${t}"`).catch(() => null);
      expect(there?.rows[0]?.n, `table ${t}`).toBe(here);
    }
    return tables.length;
  } finally {
    sqlite.close();
    await client.end();
  }
}

/**
 * The journey: a folder with every kind of row and file → what its server shows → the move into
 * `databaseUrl` and the store `storeEnv` names → the folder unchanged, every table's rows there,
 * and two app nodes on the target showing the same sign-ins, balances, lists, images and admin
 * screens; a token from one node works on the other.
 */
export async function moveJourney(
  op: Operator,
  root: string,
  target: { databaseUrl: string; storeEnv: Record<string, string> },
): Promise<{ out: string }> {
  const data = join(root, 'data');
  await fillEveryKind(op, data);
  await fillTheRest(op, data);
  await expectEveryKind(data);
  const source = await op.serve(data);
  let users: Json;
  let admins: Json;
  try {
    admins = await whatAdminsSee(source.url);
    users = await whatUsersSee(source.url);
  } finally {
    await source.stop();
  }
  expect(admins['/api/admin/withdraws?limit=50']).toBeTruthy();
  // the new kinds of row are there to be moved: a note, an edited legal text, a saved account
  const seen = JSON.stringify(admins);
  expect(seen).toContain('Asked twice about the payout day');
  expect(seen).toContain('Görevleri dürüstçe yap');
  expect(admins['/api/withdraws/account']).toBeTruthy();
  const before = folderPrint(data);
  const env = { DATABASE_URL: target.databaseUrl, ...target.storeEnv };
  const moved = op.cli(['move-to-postgres', '--data', data], env);
  expect(moved, moved.out).toMatchObject({ code: 0 });
  for (const said of [
    'compared row counts',
    "compared each user's ledger sum with the balance",
    'compared the sha256 of ledger',
    'compared the sha256 of audit_log',
    'every one present with its size',
    'doctor on the target: all checks passed',
  ])
    expect(moved.out).toContain(said);
  expect(folderPrint(data)).toEqual(before);
  await expectEveryTableMoved(data, target.databaseUrl);
  // appeals in each of their states came over as they were
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM appeals GROUP BY status ORDER BY status',
    );
    expect(rows).toEqual([
      { status: 'overturned', n: 1 },
      { status: 'pending', n: 1 },
      { status: 'upheld', n: 1 },
    ]);
  } finally {
    await client.end();
  }

  // the nodes sign with the folder's own secret, so sessions and file links go on working
  const secret = readFileSync(new DataFolder(data).secretFile, 'utf8').trim();
  const nodeEnv = { ...env, TOKEN_SECRET: secret, ADMIN_EMAIL: '', ADMIN_PASSWORD: '' };
  const a = await op.serve(join(root, 'node-a'), nodeEnv);
  const b = await op.serve(join(root, 'node-b'), nodeEnv);
  try {
    expect(await whatAdminsSee(a.url)).toEqual(admins);
    expect(await whatAdminsSee(b.url)).toEqual(admins);
    expect(await whatUsersSee(a.url)).toEqual(users);
    expect(await whatUsersSee(b.url)).toEqual(users);
    const token = await signIn(a.url, WORKERS[1]);
    const me = (await ok(b.url, 'GET', '/api/users/me', token)).data;
    expect(me.email).toBe(WORKERS[1].email);
    // a new ledger row after the move takes an id past the folder's (the identity carried over)
    await ok(b.url, 'POST', '/api/withdraws', token, {
      amount: 25,
      paymentMethod: 'iban',
      accountDetails: { fullName: WORKERS[1].name, accountNumber: makeIban() },
    });
  } finally {
    await a.stop();
    await b.stop();
  }
  const doctor = op.cli(['doctor', '--data', join(root, 'node-a')], { ...nodeEnv });
  expect(doctor, doctor.out).toMatchObject({ code: 0 });
  return { out: moved.out };
}
