// The realistic database the hostile-input suite attacks, built through the API of the real
// server, and the digests (every table's rows, every stored file) that must not change.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import pg from 'pg';
import { type Answer, type RequestSpec, send } from '../bench/load';
import { validJpeg, validPng } from './hostile-images';
import { ADMIN } from './server';

export const TOKEN_SECRET = 'hostile-suite-token-secret-0123456789abcdef0123456789';

export interface Identity {
  name: string;
  /** the Authorization header, or none */
  authorization?: string;
  /** what the server will see: a valid user of this role, or a refused header */
  kind: 'anon' | 'bad' | 'user' | 'admin';
  suspended?: boolean;
}

export interface World {
  url: string;
  users: { admin: string; user: string; other: string; suspended: string };
  emails: { user: string; other: string; suspended: string };
  tasks: { started: string; inProgress: string; open: string; inactive: string };
  submissions: { pending: string; approved: string };
  withdrawals: { pending: string; approved: string; rejected: string };
  proofFile: string;
  proofUrl: string;
  imageFile: string;
  identities: Identity[];
}

export function multipartBody(
  boundary: string,
  parts: { name: string; value?: string | Buffer; filename?: string; type?: string }[],
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'latin1'), Buffer.from(p.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

// biome-ignore lint/suspicious/noExplicitAny: the set-up reads a few fields of JSON replies
type Json = any;

async function call(url: string, spec: RequestSpec, token?: string): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = { ...spec.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (spec.body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  const a: Answer = await send(url, { ...spec, headers });
  let json: Json = null;
  try {
    json = JSON.parse(a.body.toString());
  } catch {
    json = a.body.toString();
  }
  return { status: a.status, json };
}

async function ok(url: string, spec: RequestSpec, token?: string): Promise<Json> {
  const res = await call(url, spec, token);
  if (res.status >= 300) {
    throw new Error(`set-up ${spec.method} ${spec.path} → ${res.status} ${JSON.stringify(res.json)}`);
  }
  return res.json;
}

const json = (method: string, path: string, body: unknown): RequestSpec => ({
  method,
  path,
  body: JSON.stringify(body),
});

function upload(
  path: string,
  method: string,
  field: string,
  file: Buffer,
  fields: Record<string, string> = {},
) {
  const boundary = 'seedBoundary7d1e';
  return {
    method,
    path,
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: multipartBody(boundary, [
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: field, value: file, filename: 'proof.png', type: 'image/png' },
    ]),
  };
}

const secret = new TextEncoder().encode(TOKEN_SECRET);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Every kind of token the server must refuse, and one whose claims lie. */
async function hostileIdentities(
  w: Omit<World, 'identities'>,
  tokens: Record<string, string>,
): Promise<Identity[]> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { name: 'Admin', email: ADMIN.email, role: 'admin', status: 'active', banReason: null };
  const hs256 = (payload: Record<string, unknown>, key = secret) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
  const expired = await hs256({ ...claims, sub: w.users.admin, iat: now - 7200, exp: now - 3600 });
  const wrongKey = await hs256(
    { ...claims, sub: w.users.admin, iat: now, exp: now + 3600 },
    new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'),
  );
  const ghost = await hs256({
    ...claims,
    sub: 'ffffffffffffffffffffffffffffffff',
    iat: now,
    exp: now + 3600,
  });
  const noSub = await hs256({ ...claims, iat: now, exp: now + 3600 });
  const numericSub = await hs256({ ...claims, sub: 1, iat: now, exp: now + 3600 } as Record<string, unknown>);
  const hs512 = await new SignJWT({ ...claims, sub: w.users.admin })
    .setProtectedHeader({ alg: 'HS512' })
    .setExpirationTime('1h')
    .sign(secret);
  const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, sub: w.users.admin, exp: now + 3600 })}.`;
  const [h, p, s] = tokens.admin.split('.');
  const elevated = `${h}.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: w.users.user })}.${s}`;
  const bad: [string, string][] = [
    ['garbage', 'Bearer abc'],
    ['empty bearer', 'Bearer '],
    ['bearer only', 'Bearer'],
    ['basic auth', `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`],
    ['three dots', 'Bearer a.b.c'],
    ['alg none', `Bearer ${none}`],
    ['wrong key', `Bearer ${wrongKey}`],
    ['expired', `Bearer ${expired}`],
    ['deleted user', `Bearer ${ghost}`],
    ['no subject', `Bearer ${noSub}`],
    ['numeric subject', `Bearer ${numericSub}`],
    ['hs512', `Bearer ${hs512}`],
    ['payload swapped', `Bearer ${elevated}`],
    ['tampered signature', `Bearer ${tokens.admin.slice(0, -2)}${tokens.admin.endsWith('AA') ? 'BB' : 'AA'}`],
    ['two tokens', `Bearer ${tokens.admin} ${tokens.user}`],
    ['huge token', `Bearer ${'A'.repeat(12_000)}`],
    ['sql token', "Bearer ' OR 1=1 --"],
    ['token of another scheme', `Token ${tokens.admin}`],
  ];
  // signed with the real key, subject the regular user, claims saying admin: the server reads the user
  const lyingClaims = await hs256({ ...claims, sub: w.users.user, iat: now, exp: now + 3600 });
  return [
    { name: 'anonymous', kind: 'anon' },
    { name: 'user', kind: 'user', authorization: `Bearer ${tokens.user}` },
    { name: 'other user', kind: 'user', authorization: `Bearer ${tokens.other}` },
    { name: 'suspended user', kind: 'user', suspended: true, authorization: `Bearer ${tokens.suspended}` },
    { name: 'user with admin claims', kind: 'user', authorization: `Bearer ${lyingClaims}` },
    { name: 'admin', kind: 'admin', authorization: `Bearer ${tokens.admin}` },
    ...bad.map(
      ([name, authorization]): Identity => ({ name: `bad token: ${name}`, kind: 'bad', authorization }),
    ),
  ];
}

/**
 * Builds the database through the API: an admin, three users (one suspended), four tasks
 * (one started and submitted, one in progress, one open, one inactive), a pending and an
 * approved submission with proofs, pending, approved and rejected withdrawals, settings
 * with a logo, and a profile photo.
 */
export async function buildWorld(url: string): Promise<World> {
  const admin = (
    await ok(url, json('POST', '/api/auth/login', { email: ADMIN.email, password: ADMIN.password }))
  ).token as string;
  const register = async (name: string, email: string) => {
    const r = await ok(url, json('POST', '/api/auth/register', { name, email, password: 'user-pass-1' }));
    return { token: r.token as string, id: r.data._id as string };
  };
  const emails = {
    user: 'user@hostile.test',
    other: 'other@hostile.test',
    suspended: 'suspended@hostile.test',
  };
  const u = await register('Regular User', emails.user);
  const o = await register('Other User', emails.other);
  const s = await register('Suspended User', emails.suspended);
  const adminId = (await ok(url, { path: '/api/users/me' }, admin)).data._id as string;

  await ok(
    url,
    json('PUT', '/api/settings', {
      site: { name: 'Hostile Rewards', description: { tr: 'Açıklama', en: 'Description' } },
      contact: { email: 'contact@hostile.test', phone: '+90 555 000 00 00', address: 'Somewhere' },
      socialMedia: { twitter: 'https://twitter.com/hostile' },
      payment: { minimumPayout: 20, methods: ['papara', 'iban'] },
    }),
    admin,
  );
  await ok(url, upload('/api/settings/logo', 'PUT', 'logo', validPng(32, 16, 3)), admin);

  const task = async (title: string, extra: Record<string, unknown> = {}) =>
    (
      await ok(
        url,
        json('POST', '/api/tasks', {
          title,
          description: `${title}: do it`,
          reward: 60,
          maxCompletions: 100,
          taskLink: 'https://example.com/task',
          automaticComments: ['great', 'nice', 'superb'],
          steps: ['open', 'do'],
          deadline: '2099-12-31',
          ...extra,
        }),
        admin,
      )
    ).data._id as string;
  const started = await task('Started task');
  const inProgress = await task('In-progress task');
  const open = await task('Open task', { isFeatured: true });
  const inactive = await task('Inactive task', { status: 'inactive' });

  for (const t of [u.token, o.token])
    await ok(url, { method: 'POST', path: `/api/tasks/${started}/start` }, t);
  const submit = async (token: string) =>
    (
      await ok(
        url,
        upload('/api/submissions', 'POST', 'proofImage', validPng(24, 24, 5), { task: started }),
        token,
      )
    ).data;
  const pending = await submit(u.token);
  const approved = await submit(o.token);
  await ok(
    url,
    json('PUT', `/api/submissions/${approved._id}/review`, { status: 'approved', feedback: 'good' }),
    admin,
  );
  await ok(url, { method: 'POST', path: `/api/tasks/${inProgress}/start` }, u.token);

  // balances: the other user earned 60 TL; the regular user gets 100 TL from the admin
  await ok(
    url,
    json('PUT', `/api/admin/users/${u.id}`, { name: 'Regular User', email: emails.user, balance: 100 }),
    admin,
  );
  const withdraw = async (token: string, amount: number) =>
    (
      await ok(
        url,
        json('POST', '/api/withdraws', {
          amount,
          paymentMethod: 'papara',
          accountDetails: { fullName: 'Ali Veli', accountNumber: '1234567890' },
        }),
        token,
      )
    ).data._id as string;
  const wApproved = await withdraw(o.token, 20);
  await ok(url, json('PUT', `/api/admin/withdraws/${wApproved}/approve`, {}), admin);
  const wRejected = await withdraw(u.token, 21);
  await ok(url, json('PUT', `/api/admin/withdraws/${wRejected}/reject`, { reason: 'wrong account' }), admin);
  const wPending = await withdraw(u.token, 25);

  await ok(
    url,
    upload('/api/users/me', 'PUT', 'profileImage', validJpeg(12, 12), { name: 'Regular User' }),
    u.token,
  );
  await ok(
    url,
    json('PUT', `/api/admin/users/${s.id}`, {
      name: 'Suspended User',
      email: emails.suspended,
      status: 'suspended',
    }),
    admin,
  );

  const proofUrl = pending.proofImageUrl as string;
  const proofFile = /\/proofs\/([^?]+)/.exec(proofUrl)?.[1] ?? '';
  const me = (await ok(url, { path: '/api/users/me' }, u.token)).data;
  const imageFile = /\/images\/(.+)$/.exec(me.profileImage as string)?.[1] ?? '';
  const base = {
    url,
    users: { admin: adminId, user: u.id, other: o.id, suspended: s.id },
    emails,
    tasks: { started, inProgress, open, inactive },
    submissions: { pending: pending._id as string, approved: approved._id as string },
    withdrawals: { pending: wPending, approved: wApproved, rejected: wRejected },
    proofFile,
    proofUrl,
    imageFile,
  };
  const tokens = { admin, user: u.token, other: o.token, suspended: s.token };
  return { ...base, identities: await hostileIdentities(base, tokens) };
}

/** A hash of every table's rows (in rowid order), read through a read-only connection. */
export type Digest = { hash: string; tables: Record<string, { rows: number; hash: string }> };

/**
 * Every table's rows, hashed: the SQLite file's (in rowid order), or a PostgreSQL database's
 * (in the order of all its columns). On PostgreSQL the throttles' counters
 * (rate_limits) are left out: hostile sign-ins are meant to move them there, as they move the
 * in-memory counters of a SQLite server. So is a signed-in user's activity time
 * (users.last_active) and its session's (sessions.last_seen_at): any signed-in request refreshes
 * them once a minute, so a run that lasts longer than that on a slow machine moves them without
 * anything hostile having written.
 */
const HEARTBEAT_COLUMNS: Record<string, string[]> = {
  users: ['last_active'],
  sessions: ['last_seen_at'],
};

/** The rows with the heartbeat columns of `table` blanked (they move by design). */
function withoutHeartbeats(table: string, columns: string[], rows: unknown[][]): unknown[][] {
  const skip = (HEARTBEAT_COLUMNS[table] ?? []).map((c) => columns.indexOf(c)).filter((i) => i >= 0);
  if (!skip.length) return rows;
  return rows.map((row) => row.map((v, i) => (skip.includes(i) ? null : v)));
}

export async function databaseDigest(where: { file: string } | { url: string }): Promise<Digest> {
  if ('url' in where) return postgresDigest(where.url);
  return sqliteDigest(where.file);
}

async function postgresDigest(url: string): Promise<Digest> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const names = (
      await client.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'rate_limits' ORDER BY table_name",
      )
    ).rows;
    const tables: Digest['tables'] = {};
    const all = createHash('sha256');
    for (const { name } of names) {
      const count = (
        await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
          ['public', name],
        )
      ).rows[0].n;
      const order = Array.from({ length: count }, (_, i) => i + 1).join(', ');
      const result = await client.query({
        text: `SELECT * FROM "${name}" ORDER BY ${order}`,
        rowMode: 'array',
      });
      const rows = withoutHeartbeats(
        name,
        result.fields.map((f) => f.name),
        result.rows,
      );
      const h = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
      tables[name] = { rows: rows.length, hash: h };
      all.update(`${name}:${h};`);
    }
    return { hash: all.digest('hex'), tables };
  } finally {
    await client.end();
  }
}

function sqliteDigest(file: string): Digest {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all() as { name: string; sql: string }[];
    const tables: Record<string, { rows: number; hash: string }> = {};
    const all = createHash('sha256');
    for (const { name, sql } of names) {
      const order = /WITHOUT ROWID/i.test(sql) ? '' : ' ORDER BY rowid';
      const statement = db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"${order}`).raw();
      const rows = withoutHeartbeats(
        name,
        statement.columns().map((c) => c.name),
        statement.all() as unknown[][],
      );
      const h = createHash('sha256').update(sql).update(JSON.stringify(rows)).digest('hex');
      tables[name] = { rows: rows.length, hash: h };
      all.update(`${name}:${h};`);
    }
    return { hash: all.digest('hex'), tables };
  } finally {
    db.close();
  }
}

/** A hash of every file under a folder (name, size and content), and the list of names. */
export function folderDigest(dir: string): { hash: string; files: string[] } {
  const files: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(dir);
  files.sort();
  const h = createHash('sha256');
  for (const f of files) h.update(relative(dir, f)).update('\0').update(readFileSync(f)).update('\0');
  return { hash: h.digest('hex'), files: files.map((f) => relative(dir, f)) };
}
