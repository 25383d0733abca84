// The limits of the parts the app is built from, so the app's figures can be read as ratios:
//  - bareHttp:   node:http answering a fixed JSON (20 task rows, about 12 KB)
//  - hono:       Hono on @hono/node-server (like src-server/cli/serve.ts) answering the same
//  - honoSqlite: Hono answering 20 rows read by one prepared better-sqlite3 statement that walks
//                an index over 10,000 tasks (WAL, synchronous=FULL)
//  - bareTransaction: better-sqlite3 (WAL, synchronous=FULL, foreign keys) committing one
//                transaction that updates a submission's status, a user's balance and inserts a
//                ledger row, one after the other
//  - fsync1MB:   writing a 1 MB buffer to a new file and fsyncing it
//  - pipeline:   the proof upload's image work bare (measurePipeline): sanitizeProof, the same
//                sharp calls an upload makes (re-encode, thumbnail, fingerprints), in this
//                process, one at a time or two at once, with the process's CPU per image
// The three servers run in child processes (bench/limit-servers.mjs) loaded by the same client
// (bench/load.ts) with the same concurrency and rounds as the app's task list, then by wrk
// (bench/wrk.ts) when it is installed.
//   node dist/bench/limits.cjs [--quick]   (or through bench/run.ts)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { sanitizeProof } from '../src-server/storage/image';
import { type LoadResult, median, quantile, rounds, runLoad } from './load';
import { processCpuMs } from './probes';
import { runWrk, type WrkResult, wrkRounds, wrkVersion } from './wrk';

export interface LoopResult {
  /** Operations completed per second, one after the other on one thread. */
  perSecond: number;
  /** Milliseconds per operation. */
  p50: number;
  p99: number;
}

export interface Limits {
  bareHttp: LoadResult;
  hono: LoadResult;
  honoSqlite: LoadResult;
  /**
   * The CPU Hono + prepared SELECT's process used per request (ms; all its threads, /proc), under
   * the bench's client and under wrk (0 without wrk): on a machine shared with other work a rate
   * is also the share of the cores the scheduler gave the server, the CPU per request is not.
   */
  honoSqliteCpuMs: { client: number; wrk: number };
  /** The same three servers loaded by wrk (bench/wrk.ts); null when wrk is not installed. */
  wrk: { version: string; bareHttp: WrkResult; hono: WrkResult; honoSqlite: WrkResult } | null;
  bareTransaction: LoopResult;
  fsync1MB: LoopResult;
}

export interface LimitOptions {
  /** Short rounds (3 x 1 s) for a smoke run. */
  quick?: boolean;
  /** Where the SQLite files and the fsync'ed files go (a temp folder on the OS temp disk by default). */
  dir?: string;
}

/** The load shape of the app's task-list benchmark: 16 workers, 3 rounds of 5 s (quick: 1 s). */
export const CONCURRENCY = 16;
export const ROUNDS = 3;
export const roundMs = (quick?: boolean) => (quick ? 1_000 : 5_000);
const warmupMs = (quick?: boolean) => (quick ? 300 : 1_000);

export const LIMIT_SERVERS = resolve('bench/limit-servers.mjs');

interface LimitServer {
  url: string;
  /** its process, for its CPU time (bench/profile.ts) */
  pid: number;
  stop(): Promise<void>;
}

/** Starts one of bench/limit-servers.mjs and resolves once it listens. */
export async function startLimitServer(
  kind: 'bare' | 'hono' | 'hono-sqlite',
  dir: string,
): Promise<LimitServer> {
  const child: ChildProcess = spawn(process.execPath, [LIMIT_SERVERS, kind, dir], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start:\n${output}`)), 60_000);
    const onData = (c: Buffer) => {
      output += c.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${kind} server exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * GET /tasks against a limit server: a warm-up, then the rounds; every answer must be a 200.
 * With `wrk`, the same server is then loaded by wrk too (same connections and rounds).
 */
async function loadServer(
  kind: 'bare' | 'hono' | 'hono-sqlite',
  dir: string,
  quick?: boolean,
  wrk?: boolean,
) {
  const server = await startLimitServer(kind, dir);
  try {
    const round = (durationMs: number) =>
      runLoad({
        url: server.url,
        concurrency: CONCURRENCY,
        durationMs,
        next: () => ({ path: '/tasks' }),
        onAnswer: (answer) => {
          if (answer.status !== 200) throw new Error(`${kind}: ${answer.status} ${answer.body}`);
        },
      });
    await round(warmupMs(quick));
    let cpu = processCpuMs(server.pid);
    const { rounds: _all, ...result } = await rounds(ROUNDS, () => round(roundMs(quick)));
    const cpuMs = (processCpuMs(server.pid) - cpu) / Math.max(1, result.requests);
    if (!wrk) return { result, cpuMs, wrk: null, wrkCpuMs: 0 };
    const options = {
      url: server.url,
      paths: ['/tasks'],
      connections: CONCURRENCY,
      durationMs: roundMs(quick),
    };
    const warmed = await runWrk({ ...options, durationMs: warmupMs(quick) });
    cpu = processCpuMs(server.pid);
    const { rounds: _w, ...viaWrk } = await wrkRounds(ROUNDS, 0, options);
    const wrkCpuMs = (processCpuMs(server.pid) - cpu) / Math.max(1, viaWrk.requests);
    if (viaWrk.failures + warmed.failures > 0)
      throw new Error(`${kind}: ${viaWrk.failures} failed requests under wrk`);
    return { result, cpuMs, wrk: viaWrk, wrkCpuMs };
  } finally {
    await server.stop();
  }
}

/** Runs `op` one after the other for `ms` (or `max` times); per second and per-operation percentiles. */
function loop(ms: number, max: number, op: (i: number) => void, after?: (i: number) => void): LoopResult {
  const times: number[] = [];
  const t0 = performance.now();
  const deadline = t0 + ms;
  let i = 0;
  for (; i < max && performance.now() < deadline; i++) {
    const s = performance.now();
    op(i);
    times.push(performance.now() - s);
    after?.(i);
  }
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return { perSecond: i / seconds, p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

/** The bare image pipeline over a span: images per second, their latency and CPU per image. */
export interface PipelineResult {
  concurrency: number;
  images: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU of this whole process (every thread: libvips', the thread pool's, the main one) per image, ms. */
  cpuMs: number;
}

/**
 * The upload's image work with nothing around it: `concurrency` lanes each running sanitizeProof
 * (the same call the upload makes: decode, auto-orient, re-encode without metadata, and the
 * thumbnail and fingerprints from one shrink) on `source` for `ms`, in this process.
 * process.cpuUsage covers every thread of the process, so the CPU per image counts libvips'
 * threads and the thread pool as the server's /proc figures do.
 */
export async function measurePipeline(
  source: Buffer | string,
  concurrency: number,
  ms: number,
): Promise<PipelineResult> {
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + ms;
  const lane = async () => {
    while (performance.now() < deadline) {
      const s = performance.now();
      await sanitizeProof(source, { allow: ['png', 'jpeg'] });
      times.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  return {
    concurrency,
    images: times.length,
    perSecond: times.length / seconds,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    cpuMs: (cpu.user + cpu.system) / 1000 / Math.max(1, times.length),
  };
}

/** The median of each figure over rounds of the pipeline (interleaved with other work). */
export function medianPipeline(all: PipelineResult[]): PipelineResult {
  const mid = (pick: (r: PipelineResult) => number) => median(all.map(pick));
  return {
    concurrency: all[0]?.concurrency ?? 0,
    images: all.reduce((n, r) => n + r.images, 0),
    perSecond: mid((r) => r.perSecond),
    p50: mid((r) => r.p50),
    p99: mid((r) => r.p99),
    cpuMs: mid((r) => r.cpuMs),
  };
}

const USERS = 1_000;
const SUBMISSIONS = 100_000;

/** The commit of an approval, bare: submission status, user balance, ledger row. */
export function measureTransaction(dir: string, ms: number): LoopResult {
  const file = join(dir, 'transaction.db');
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // the shapes (and the indexes the writes maintain) of users, submissions and ledger
    db.exec(`
      CREATE TABLE users (
        _id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL COLLATE NOCASE,
        balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
        total_earned INTEGER NOT NULL DEFAULT 0 CHECK (total_earned >= 0),
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX users_email ON users(email COLLATE NOCASE);
      CREATE TABLE submissions (
        _id TEXT PRIMARY KEY, user_task_id TEXT NOT NULL, user_id TEXT NOT NULL REFERENCES users(_id),
        task_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending','approved','rejected')),
        reward INTEGER NOT NULL CHECK (reward > 0),
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, reviewed_by TEXT, reviewed_at TEXT
      ) STRICT;
      CREATE UNIQUE INDEX submissions_one_pending ON submissions(user_task_id) WHERE status = 'pending';
      CREATE UNIQUE INDEX submissions_paid_once ON submissions(user_id, task_id) WHERE status = 'approved';
      CREATE INDEX submissions_status ON submissions(status, created_at);
      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL REFERENCES users(_id),
        amount INTEGER NOT NULL CHECK (amount <> 0), kind TEXT NOT NULL, ref TEXT, actor_id TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX ledger_user ON ledger(user_id);
      CREATE UNIQUE INDEX ledger_once ON ledger(kind, ref) WHERE kind <> 'adjustment';
    `);
    const now = new Date().toISOString();
    const addUser = db.prepare(
      'INSERT INTO users (_id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    const addSubmission = db.prepare(
      `INSERT INTO submissions (_id, user_task_id, user_id, task_id, status, reward, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let u = 0; u < USERS; u++) addUser.run(`u${u}`, `User ${u}`, `u${u}@example.com`, now, now);
      for (let s = 0; s < SUBMISSIONS; s++)
        addSubmission.run(`s${s}`, `ut${s}`, `u${s % USERS}`, `t${s}`, 100 + (s % 900), now, now);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const approve = db.prepare(
      `UPDATE submissions SET status = 'approved', reviewed_by = 'admin', reviewed_at = ?, updated_at = ?
       WHERE _id = ? AND status = 'pending'`,
    );
    const credit = db.prepare(
      'UPDATE users SET balance = balance + ?, total_earned = total_earned + ?, updated_at = ? WHERE _id = ?',
    );
    const ledger = db.prepare(
      `INSERT INTO ledger (user_id, amount, kind, ref, actor_id, created_at) VALUES (?, ?, 'reward', ?, 'admin', ?)`,
    );
    const once = db.transaction((s: number) => {
      const at = new Date().toISOString();
      const amount = 100 + (s % 900);
      if (approve.run(at, at, `s${s}`).changes !== 1) throw new Error(`submission s${s} was not pending`);
      credit.run(amount, amount, at, `u${s % USERS}`);
      ledger.run(`u${s % USERS}`, amount, `s${s}`, at);
    });
    for (let s = 0; s < 50; s++) once(SUBMISSIONS - 1 - s); // warm-up
    return loop(ms, SUBMISSIONS - 50, (i) => once(i));
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
}

/**
 * The same bare transaction (a submission approved, its user credited, a ledger row) on a copy
 * of the seeded database: tables of 10^5 to 10^6 rows with every index the app keeps, so each
 * commit writes the pages an approval at this scale writes. Pending submissions of the seed
 * are approved one after another; the copy is removed afterwards.
 */
export function measureTransactionAtScale(seededDb: string, ms: number): LoopResult {
  const copy = openTransactionAtScale(seededDb);
  try {
    return copy.bare(ms);
  } finally {
    copy.close();
  }
}

/** A copy of the seeded database that the transaction limits run on, round after round. */
export interface TransactionsAtScale {
  /** The bare transaction: the submission's status, the user's balance, a ledger row. */
  bare(ms: number): LoopResult;
  /**
   * Every write an approval must make, bare: the bare transaction's three (the status change
   * returning what the next statements need, the credit conditional on a payable account, the
   * ledger row) and the user's task record completed, the task's completion counted, the audit
   * row and the user's inbox message, each one prepared statement, in one transaction.
   */
  approval(ms: number): LoopResult;
  close(): void;
}

/**
 * Copies the seeded database (with its WAL) once, for limits measured between the app's rounds;
 * the copy's pending submissions of active accounts are used up one per transaction, shared by
 * both shapes. Take the copy before a server opens the folder.
 */
export function openTransactionAtScale(seededDb: string): TransactionsAtScale {
  const dir = mkdtempSync(join(tmpdir(), 'taskreward-tx-scale-'));
  const file = join(dir, 'taskreward.db');
  let db: Database.Database | null = null;
  try {
    copyFileSync(seededDb, file);
    if (existsSync(`${seededDb}-wal`)) copyFileSync(`${seededDb}-wal`, `${file}-wal`);
    const opened = new Database(file);
    db = opened;
    opened.pragma('journal_mode = WAL');
    opened.pragma('synchronous = FULL');
    opened.pragma('foreign_keys = ON');
    const pending = opened
      .prepare(
        `SELECT s._id, s.user_id, s.task_id, s.user_task_id, s.reward FROM submissions s
         JOIN users u ON u._id = s.user_id
         WHERE s.status = 'pending' AND u.status = 'active' AND u.deleted_at IS NULL LIMIT 200000`,
      )
      .all() as { _id: string; user_id: string; task_id: string; user_task_id: string; reward: number }[];
    if (pending.length < 100) throw new Error('the seeded database has too few pending submissions');
    const admin = opened.prepare("SELECT _id, name, email FROM users WHERE role = 'admin' LIMIT 1").get() as
      | { _id: string; name: string; email: string }
      | undefined;
    const adminId = admin?._id ?? 'admin';
    let next = 0;
    const take = () => {
      if (next >= pending.length) throw new Error('the copy ran out of pending submissions');
      return pending[next++];
    };

    const approve = opened.prepare(
      `UPDATE submissions SET status = 'approved', reviewed_by = 'admin', reviewed_at = ?, updated_at = ?
       WHERE _id = ? AND status = 'pending'`,
    );
    const credit = opened.prepare(
      'UPDATE users SET balance = balance + ?, total_earned = total_earned + ?, updated_at = ? WHERE _id = ?',
    );
    const ledger = opened.prepare(
      `INSERT INTO ledger (user_id, amount, kind, ref, actor_id, created_at) VALUES (?, ?, 'reward', ?, NULL, ?)`,
    );
    const bareOnce = opened.transaction(() => {
      const s = take();
      const at = new Date().toISOString();
      if (approve.run(at, at, s._id).changes !== 1) throw new Error(`submission ${s._id} was not pending`);
      credit.run(s.reward, s.reward, at, s.user_id);
      ledger.run(s.user_id, s.reward, s._id, at);
    });

    const settle = opened.prepare(
      `UPDATE submissions SET status = 'approved', feedback = 'ok', feedback_code = NULL, rejection_reason = NULL,
         reviewed_by = ?, auto_approved = 0, reviewed_at = ?, updated_at = ?
       WHERE _id = ? AND status = 'pending' RETURNING user_id, task_id, user_task_id, reward`,
    );
    const pay = opened.prepare(
      `UPDATE users SET balance = balance + ?, total_earned = total_earned + ?
       WHERE _id = ? AND deleted_at IS NULL AND status <> 'banned'`,
    );
    const payRow = opened.prepare(
      `INSERT INTO ledger (user_id, amount, kind, ref, actor_id, created_at) VALUES (?, ?, 'reward', ?, ?, ?)`,
    );
    const complete = opened.prepare(
      `UPDATE user_tasks SET status = 'completed', completed_at = ? WHERE _id = ?`,
    );
    const count = opened.prepare(
      `UPDATE tasks SET total_completed = total_completed + 1,
         status = CASE WHEN total_completed + 1 >= max_completions THEN 'completed' ELSE status END, updated_at = ?
       WHERE _id = ?`,
    );
    const audit = opened.prepare(
      `INSERT INTO audit_log (at, actor_id, actor_name, actor_email, action, target_type, target_id, changes)
       VALUES (?, ?, ?, ?, 'submission.approve', 'submission', ?, ?)`,
    );
    const message = opened.prepare(
      `INSERT INTO inbox (_id, user_id, type, title, message, ref, created_at) VALUES (?, ?, 'isAccepted', NULL, NULL, ?, ?)`,
    );
    const approvalOnce = opened.transaction(() => {
      const s = take();
      const at = new Date().toISOString();
      const row = settle.get(adminId, at, at, s._id) as
        | { user_id: string; task_id: string; user_task_id: string; reward: number }
        | undefined;
      if (!row) throw new Error(`submission ${s._id} was not pending`);
      if (pay.run(row.reward, row.reward, row.user_id).changes !== 1)
        throw new Error(`${row.user_id} not payable`);
      payRow.run(row.user_id, row.reward, s._id, adminId, at);
      complete.run(at, row.user_task_id);
      count.run(at, row.task_id);
      const changes = JSON.stringify({
        status: ['pending', 'approved'],
        user: row.user_id,
        reward: row.reward,
        feedback: 'ok',
      });
      audit.run(at, adminId, admin?.name ?? null, admin?.email ?? null, s._id, changes);
      // the app's ids are random (db/ids.ts): each lands somewhere in the primary key's index
      message.run(randomBytes(12).toString('hex'), row.user_id, s._id, at);
    });
    // warm-up: SQLite's cache and the JIT, for each shape
    for (let i = 0; i < 25; i++) bareOnce();
    for (let i = 0; i < 25; i++) approvalOnce();
    return {
      bare: (ms) => loop(ms, pending.length - next, () => bareOnce()),
      approval: (ms) => loop(ms, pending.length - next, () => approvalOnce()),
      close() {
        opened.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Write 1 MB to a new file and fsync it (the timed part), then unlink it. */
export function measureFsync(dir: string, ms: number): LoopResult {
  const buffer = Buffer.alloc(1024 * 1024, 'taskreward ');
  const name = (i: number) => join(dir, `fsync-${i}.bin`);
  return loop(
    ms,
    Number.POSITIVE_INFINITY,
    (i) => {
      const fd = openSync(name(i), 'w');
      try {
        writeSync(fd, buffer);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    (i) => unlinkSync(name(i)),
  );
}

export async function measureLimits(opts: LimitOptions = {}): Promise<Limits> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'taskreward-limits-'));
  try {
    const version = wrkVersion();
    const bare = await loadServer('bare', dir, opts.quick, version !== null);
    const hono = await loadServer('hono', dir, opts.quick, version !== null);
    const honoSqlite = await loadServer('hono-sqlite', dir, opts.quick, version !== null);
    const loopMs = roundMs(opts.quick);
    const bareTransaction = measureTransaction(dir, loopMs);
    const fsync1MB = measureFsync(dir, loopMs);
    const wrk =
      version && bare.wrk && hono.wrk && honoSqlite.wrk
        ? { version, bareHttp: bare.wrk, hono: hono.wrk, honoSqlite: honoSqlite.wrk }
        : null;
    return {
      bareHttp: bare.result,
      hono: hono.result,
      honoSqlite: honoSqlite.result,
      honoSqliteCpuMs: { client: honoSqlite.cpuMs, wrk: honoSqlite.wrkCpuMs },
      wrk,
      bareTransaction,
      fsync1MB,
    };
  } finally {
    if (!opts.dir) rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (${r.requests} requests)`;
const fmtLoop = (r: LoopResult) =>
  `${r.perSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`;

/** A readable summary of the limits, one line each. */
export function formatLimits(l: Limits): string {
  return [
    `bare node:http, fixed JSON:      ${fmt(l.bareHttp)}`,
    `Hono, fixed JSON:                ${fmt(l.hono)}`,
    `Hono + prepared 20-row SELECT:   ${fmt(l.honoSqlite)}, server CPU ${l.honoSqliteCpuMs.client.toFixed(3)} ms/req`,
    ...(l.wrk
      ? [
          `the same under ${l.wrk.version}:`,
          `  bare node:http                 ${fmt(l.wrk.bareHttp)}`,
          `  Hono                           ${fmt(l.wrk.hono)}`,
          `  Hono + prepared SELECT         ${fmt(l.wrk.honoSqlite)}, server CPU ${l.honoSqliteCpuMs.wrk.toFixed(3)} ms/req`,
        ]
      : ['wrk not installed: no figures under a C load generator']),
    `bare approval transaction:       ${fmtLoop(l.bareTransaction)}`,
    `write + fsync 1 MB:              ${fmtLoop(l.fsync1MB)}`,
  ].join('\n');
}

if (/limits\.(c?js|ts)$/.test(process.argv[1] ?? '')) {
  measureLimits({ quick: process.argv.includes('--quick') }).then(
    (l) => console.log(formatLimits(l)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
