// Hostile input: a generated set of malformed requests across every endpoint of the
// real built server — wrong types, missing and extra fields, huge and deep bodies, bad tokens,
// path tricks, multipart abuse, broken HTTP framing — sent as a visitor, users and the admin.
// Every one is invalid by construction (faults/hostile-gen.ts), so: zero 5xx, no resets or
// hangs, every /api 4xx in the contract's error shape, and the database (every table's rows)
// and the stored files exactly as before. FAULTS_SEED replays a run; FAULTS_FULL=1 sends more;
// FAULTS_POSTGRES=1 runs it on PostgreSQL.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, send } from '../bench/load';
import { faultDatabase } from './fault-database';
import { generate, type HostileRequest } from './hostile-gen';
import { type RawResult, rawCases, sendRaw, targetsApi } from './hostile-raw';
import { buildWorld, databaseDigest, folderDigest, TOKEN_SECRET, type World } from './hostile-world';
import { prng, scaled, seedFromEnv } from './scale';
import { type ServerProcess, startServerProcess } from './server';

const COUNT = scaled(50_000, 5_200);
const CONCURRENCY = 8;
const TIMEOUT_MS = 15_000;
const SEED = seedFromEnv();

let server: ServerProcess;
let world: World;
// FAULTS_POSTGRES=1: on a fresh PostgreSQL database
const database = faultDatabase();
let engineEnv: Record<string, string> = {};

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['build/build.mjs', '--if-needed'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  engineEnv = await database.env();
  server = await startServerProcess({ env: { ...engineEnv, TOKEN_SECRET, BACKUP_INTERVAL_HOURS: '0' } });
  world = await buildWorld(server.url);
});

afterAll(async () => {
  await server?.stop();
  await database.drop();
});

interface Outcome {
  req: HostileRequest;
  status: number;
  error?: string;
  body?: string;
  contentType?: string;
}

function isContractError(body: string): boolean {
  try {
    const j = JSON.parse(body);
    return (
      j?.success === false &&
      typeof j.error?.code === 'string' &&
      /^[a-z_]+$/.test(j.error.code) &&
      typeof j.error.message === 'string' &&
      j.error.message.length > 0
    );
  } catch {
    return false;
  }
}

async function sendOne(req: HostileRequest, agent: http.Agent): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout after ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  try {
    const a: Answer = await Promise.race([send(server.url, req, agent), timeout]);
    return {
      req,
      status: a.status,
      body: a.body.toString('utf8'),
      contentType: String(a.headers['content-type'] ?? ''),
    };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { req, status: 0, error: e.code ?? e.message };
  } finally {
    clearTimeout(timer);
  }
}

function tally<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[key(i)] = (out[key(i)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function table(rows: Record<string, Record<string, number>>): string {
  const cols = [...new Set(Object.values(rows).flatMap((r) => Object.keys(r)))].sort();
  const width = Math.max(...Object.keys(rows).map((k) => k.length), 5);
  const head = `${'group'.padEnd(width)} ${cols.map((c) => c.padStart(6)).join(' ')}  total`;
  const lines = Object.entries(rows).map(([k, r]) => {
    const total = Object.values(r).reduce((a, b) => a + b, 0);
    return `${k.padEnd(width)} ${cols.map((c) => String(r[c] ?? '').padStart(6)).join(' ')}  ${String(total).padStart(5)}`;
  });
  return [head, ...lines].join('\n');
}

describe('hostile input', () => {
  it(`answers ${COUNT}+ malformed requests with 4xx only and changes nothing`, async () => {
    const started = performance.now();
    const where = engineEnv.DATABASE_URL
      ? { url: engineEnv.DATABASE_URL }
      : { file: join(server.dataDir, 'taskreward.db') };
    console.log(`hostile: on ${engineEnv.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`);
    const filesDir = join(server.dataDir, 'files');
    const before = { db: await databaseDigest(where), files: folderDigest(filesDir) };

    const rng = prng(SEED);
    const requests = generate(world, rng, {
      count: COUNT,
      bombs: scaled(24, 4),
      bigFiles: scaled(30, 4),
    });
    const cases = rawCases(world, new URL(server.url).host);
    console.log(
      `hostile: seed ${SEED} (FAULTS_SEED=${SEED} replays it); ${requests.length} HTTP requests + ${cases.length} raw-socket cases`,
    );

    // the HTTP requests, CONCURRENCY at a time over keep-alive sockets
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const oneShot = new http.Agent({ keepAlive: false });
    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const req = requests[next++];
          // a big body the server refuses before reading it is drained for a moment, then its
          // socket is closed: it goes on a connection of its own (see the report)
          const big = req.body !== undefined && Buffer.byteLength(req.body) >= 64 * 1024;
          outcomes.push(await sendOne(req, big ? oneShot : agent));
        }
      }),
    );
    agent.destroy();
    oneShot.destroy();

    // the raw-socket cases, a few at a time
    const raw: RawResult[] = [];
    const apiCase = new Map(cases.map((c) => [c.label, targetsApi(c)]));
    for (let i = 0; i < cases.length; i += 4) {
      raw.push(
        ...(await Promise.all(
          cases.slice(i, i + 4).map((c) => sendRaw(server.url, c, c.incomplete ? 1500 : TIMEOUT_MS)),
        )),
      );
    }

    // the server is still healthy: reads answer, as the regular user too
    const user = world.identities.find((x) => x.name === 'user');
    const health = await Promise.all([
      send(server.url, { path: '/api/settings' }),
      send(server.url, { path: '/api/tasks' }),
      send(server.url, { path: '/api/users/me', headers: { Authorization: user?.authorization ?? '' } }),
      send(server.url, { path: '/' }),
    ]);
    // requests cut off mid-upload leave nothing behind once they are given up
    await new Promise((r) => setTimeout(r, 500));
    const tmpDir = join(server.dataDir, 'tmp');
    const leftovers = existsSync(tmpDir) ? readdirSync(tmpDir) : [];
    const after = { db: await databaseDigest(where), files: folderDigest(filesDir) };
    const seconds = (performance.now() - started) / 1000;

    if (process.env.HOSTILE_DUMP) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        process.env.HOSTILE_DUMP,
        JSON.stringify({
          outcomes: outcomes.map((o) => ({ ...o, req: { ...o.req, body: undefined } })),
          raw,
          log: server.log(),
        }),
      );
    }
    // ---- the report ----
    const byGroup: Record<string, Record<string, number>> = {};
    for (const o of outcomes) {
      byGroup[o.req.group] ??= {};
      const g = byGroup[o.req.group];
      const s = o.error ? 'err' : String(o.status);
      g[s] = (g[s] ?? 0) + 1;
    }
    const rawRow: Record<string, number> = {};
    for (const r of raw) {
      const s = r.statuses.length
        ? r.statuses.map(String)
        : [r.hang ? (r.incomplete ? 'gave-up' : 'hang') : 'closed'];
      for (const x of s) rawRow[x] = (rawRow[x] ?? 0) + 1;
    }
    byGroup['raw socket'] = rawRow;
    console.log(
      `hostile: ${outcomes.length + raw.length} requests in ${seconds.toFixed(1)} s\n${table(byGroup)}`,
    );
    console.log(
      'hostile: by status',
      tally(outcomes, (o) => (o.error ? `error ${o.error}` : String(o.status))),
    );
    console.log(
      'hostile: by identity',
      tally(outcomes, (o) => o.req.who.replace(/^bad token: .*/, 'bad token (18 kinds)')),
    );
    console.log(
      'hostile: why each may not change anything',
      tally(outcomes, (o) => o.req.refusedBy),
    );
    console.log(
      'hostile: tables',
      Object.fromEntries(Object.entries(after.db.tables).map(([k, v]) => [k, v.rows])),
      `files ${after.files.files.length}`,
    );

    // ---- the checks ----
    const describeOne = (o: Outcome) =>
      `${o.req.method} ${o.req.path.slice(0, 120)} as ${o.req.who} [${o.req.label.slice(0, 160)}] → ${o.error ?? o.status} ${(o.body ?? '').slice(0, 200)}`;
    const serverErrors = outcomes.filter((o) => o.status >= 500);
    // an upload over 5 MB is refused while it streams in (413) and the rest is not read: the
    // connection closes under the client's feet, which may see EPIPE before the answer. So does
    // a large body sent by a caller who keeps being refused (the flood rule answers it after a
    // hold with `Connection: close`, the body unread: http/held-refusal.ts): once the body is
    // more than the loopback socket's buffers take while nobody reads (a few hundred KB), the
    // client is still writing when the socket closes, and a reset is that, not a failure (seen
    // with a 588 KB nested JSON body when the run happened to be held; a caller that is not
    // flooding gets its refusal and keeps its connection: http/keep-alive-refusal.test.ts)
    const bytes = (o: Outcome) => (o.req.body === undefined ? 0 : Buffer.byteLength(o.req.body));
    const bigUpload = (o: Outcome) =>
      bytes(o) > 5_242_880 || (bytes(o) > 262_144 && /EPIPE|ECONNRESET/.test(String(o.error)));
    const cutUploads = outcomes.filter((o) => o.error && bigUpload(o));
    // path and headers beyond Node's 16 KB header limit: its parser answers 431, before the app
    const overHeaderLimit = (o: Outcome) =>
      o.req.path.length +
        Object.entries(o.req.headers).reduce((a, [k, v]) => a + k.length + v.length + 4, 0) >
      15_000;
    // such a HEAD: Node's parser sends its 431 and closes while the client is still writing the
    // request, and Node's client reports the close instead (seed 1096517214); the app never ran
    const headCutByParser = (o: Outcome) =>
      o.req.method === 'HEAD' && overHeaderLimit(o) && /HPE_CLOSED_CONNECTION/.test(String(o.error));
    const failures = outcomes.filter((o) => o.error && !bigUpload(o) && !headCutByParser(o));
    const successes = outcomes.filter(
      (o) => o.status >= 200 && o.status < 300 && o.req.refusedBy !== 'read-only',
    );
    const badShape = outcomes.filter(
      (o) =>
        o.status >= 400 &&
        o.req.method !== 'HEAD' &&
        (o.req.path.startsWith('/api') || o.req.route !== 'other') &&
        !(overHeaderLimit(o) && o.status === 431) &&
        !isContractError(o.body ?? ''),
    );
    const rawBad = raw.filter(
      (r) =>
        r.statuses.some((s) => s >= 500) ||
        (r.hang && !r.incomplete) ||
        (r.reset && !r.statuses.length && !r.incomplete),
    );
    const rawNoAnswer = raw.filter((r) => !r.statuses.length && !r.incomplete && !r.parserLevel);
    const rawBadShape = raw.filter(
      (r) =>
        !r.parserLevel &&
        apiCase.get(r.label) &&
        r.statuses.some((s, i) => s >= 400 && !isContractError(r.bodies[i] ?? '')),
    );
    const tableDiff = Object.keys({ ...before.db.tables, ...after.db.tables }).filter(
      (t) => before.db.tables[t]?.hash !== after.db.tables[t]?.hash,
    );

    console.log(
      `hostile: ${cutUploads.length} uploads over 5 MB cut off by the server (413 while streaming); ` +
        `${outcomes.filter((o) => overHeaderLimit(o)).length} requests over the 16 KB header limit (431 from Node's parser)`,
    );
    if (serverErrors.length) console.log('5xx:\n', serverErrors.slice(0, 20).map(describeOne).join('\n'));
    if (failures.length) console.log('no answer:\n', failures.slice(0, 20).map(describeOne).join('\n'));
    if (successes.length)
      console.log('2xx on a refused request:\n', successes.slice(0, 20).map(describeOne).join('\n'));
    if (badShape.length)
      console.log('not the error shape:\n', badShape.slice(0, 20).map(describeOne).join('\n'));
    if (rawBad.length || rawNoAnswer.length || rawBadShape.length)
      console.log(
        'raw:',
        JSON.stringify([...rawBad, ...rawNoAnswer, ...rawBadShape].slice(0, 20), null, 1).slice(0, 4000),
      );
    if (tableDiff.length) console.log('changed tables:', tableDiff);
    if (serverErrors.length || failures.length) console.log(server.log().slice(-4000));

    expect(outcomes.length + raw.length).toBeGreaterThanOrEqual(5000);
    expect(serverErrors.map(describeOne)).toEqual([]);
    expect(failures.map(describeOne)).toEqual([]);
    expect(successes.map(describeOne)).toEqual([]);
    expect(badShape.map(describeOne)).toEqual([]);
    expect(rawBad.map((r) => r.label)).toEqual([]);
    expect(rawNoAnswer.map((r) => r.label)).toEqual([]);
    expect(rawBadShape.map((r) => r.label)).toEqual([]);
    expect(health.map((h) => h.status)).toEqual([200, 200, 200, 200]);
    expect(leftovers).toEqual([]);
    expect(tableDiff).toEqual([]);
    expect(after.db.hash).toBe(before.db.hash);
    expect(after.files.files).toEqual(before.files.files);
    expect(after.files.hash).toBe(before.files.hash);
  });
});
