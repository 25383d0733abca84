// The scale seeder of `npm run bench`: a data folder whose schema comes from the real
// migrations (`main.cjs migrate`, which also creates the admin), then filled with raw
// better-sqlite3 prepared statements in big transactions, secondary indexes dropped during
// the load and rebuilt after it (the unique ones then check the data). The rows obey the
// money rules `doctor` checks: every balance is its ledger sum, total earned its reward rows,
// one reward row per approved submission, one hold per withdrawal and one refund per rejected
// one; tasks count their reserved slots (pending + approved) and completions (approved).
//
// Shape, at full scale: 100,000 users, 10,000 tasks, 1,000,000 submissions (one user task
// record each, 10 per user, 100 per task), 200,000 withdrawals, ~0.95 M ledger rows. User u
// holds the records of exactly the tasks t with t ≡ u (mod tasks / perUser), so the bench knows
// which tasks a user has not started yet.
//
// Fingerprints: every seeded submission is a screenshot proof (its task requires one)
// and carries what an upload stores: a 64-bit proof_hash shaped like the server's pHash (the
// constant term's bit set, 31 of the other 63 set: storage/image.ts medianBits), a 256-bit
// proof_print of the content kind, and its six parts' lookup keys (proof_b0..b5, 21 bits each), drawn
// uniformly at random from their own generator (the rest of the data is what it was before).
// Uniform hashes are the kind case for the duplicate lookup: real screenshots cluster, so they
// share band values more often. No proof file is stored (proof_file stays NULL: a million files
// would not fit the bench, and doctor reports a named file that is missing), so the background
// backfill, which looks for proofs with a file and no print, has nothing to do.
// Payout accounts: a user's IBAN is a valid TR IBAN holding its index and its Papara number
// 1,000,000,000 + its index, except that 1% of users (index ≡ 42 mod 100) withdraw to the
// accounts of the user before them, so those account numbers are shared by two accounts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ADMIN, SERVER_ENTRY } from '../faults/server';
import { CATEGORIES, DIFFICULTIES, REJECTION_REASONS } from '../src-server/contract/constants';
import { foldSearch } from '../src-server/db/search';
import { bandsOf } from '../src-server/features/fraud/fingerprint-bands';
import { taskSearchBody, taskSearchTitle } from '../src-server/features/tasks/task-search';
import { hashPassword } from '../src-server/features/users/password';
import { passwordStamp } from '../src-server/features/users/token';

export interface SeedScale {
  users: number;
  tasks: number;
  submissions: number;
  withdrawals: number;
}

export const FULL_SCALE: SeedScale = {
  users: 100_000,
  tasks: 10_000,
  submissions: 1_000_000,
  withdrawals: 200_000,
};
export const QUICK_SCALE: SeedScale = { users: 2_000, tasks: 200, submissions: 50_000, withdrawals: 4_000 };

/** Every seeded user signs in with this password (one argon2 hash, the server's parameters). */
export const SEED_PASSWORD = 'bench-pass-1';

export interface SeedResult {
  dataDir: string;
  scale: SeedScale;
  /** Row counts as written. */
  rows: Record<'users' | 'tasks' | 'user_tasks' | 'submissions' | 'withdrawals' | 'ledger', number>;
  /** Wall time of the whole seeding (migrate + hash + rows + indexes), and of its parts. */
  ms: { total: number; migrate: number; rows: number; indexes: number; checkpoint: number };
  /** True when an earlier seed of the same scale was reused (--keep). */
  reused: boolean;
  dbBytes: number;
}

const MARKER = 'bench-seed.json';
const DAY = 86_400_000;

export function userEmail(i: number): string {
  return `user${i}@bench.test`;
}

/** Ids are 24 hex characters like the app's; a per-table prefix and a counter keep inserts in order. */
function hexId(prefix: number, i: number): string {
  return prefix.toString(16) + i.toString(16).padStart(23, '0');
}
export const userId = (i: number) => hexId(1, i);
export const taskId = (i: number) => hexId(2, i);

/** Tasks per user stride: user u holds records of the tasks t with t % stride === u % stride. */
export function taskStride(scale: SeedScale): number {
  return scale.tasks / (scale.submissions / scale.users);
}

/** mulberry32: the same data on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Positions 1..bits-1, shuffled in place by each draw (a partial shuffle of any order is uniform). */
const bitPositions = {
  64: Uint8Array.from({ length: 63 }, (_, i) => i + 1),
  256: Uint8Array.from({ length: 255 }, (_, i) => i + 1),
};

/** The hex of a `bits`-bit pHash-shaped fingerprint: the first bit set and `bits/2 - 1` of the others. */
/** A content print of the server's shape: a 256-bit pHash and six 64-bit ones of its parts. */
export function randomContentPrint(rand: () => number): string {
  return randomFingerprint(rand, 256) + Array.from({ length: 6 }, () => randomFingerprint(rand, 64)).join('');
}

export function randomFingerprint(rand: () => number, bits: 64 | 256): string {
  const positions = bitPositions[bits];
  const words = new Uint32Array(bits / 32);
  words[0] = 0x80000000;
  // a partial Fisher-Yates shuffle picks bits/2 - 1 distinct positions out of the bits - 1
  for (let k = 0; k < bits / 2 - 1; k++) {
    const j = k + Math.floor(rand() * (positions.length - k));
    const p = positions[j];
    positions[j] = positions[k];
    positions[k] = p;
    words[p >>> 5] |= 1 << (31 - (p & 31));
  }
  let hex = '';
  for (let i = 0; i < words.length; i++) hex += words[i].toString(16).padStart(8, '0');
  return hex;
}

/** The payout accounts of user u: 1% of users (u ≡ 42 mod 100) withdraw to the previous user's. */
export function payoutOwner(u: number): number {
  return u % 100 === 42 ? u - 1 : u;
}
export const papara = (u: number) => String(1_000_000_000 + payoutOwner(u));
/** A valid Turkish IBAN (ISO 13616 check digits) whose 22 digits are the owner's index. */
export function iban(u: number): string {
  const bban = String(payoutOwner(u)).padStart(22, '0');
  let rest = 0;
  for (const d of `${bban}292700`) rest = (rest * 10 + Number(d)) % 97; // T = 29, R = 27
  return `TR${String(98 - rest).padStart(2, '0')}${bban}`;
}

const TITLES = ['Instagram takip et', 'Uygulama yorumu yaz', 'Anket doldur', 'Video izle', 'Kayıt ol'];

function sameScale(a: SeedScale, b: SeedScale): boolean {
  return (
    a.users === b.users &&
    a.tasks === b.tasks &&
    a.submissions === b.submissions &&
    a.withdrawals === b.withdrawals
  );
}

/** The session every seeded user holds (seed), named by their id: the bench signs tokens for it. */
export const benchSessionId = (id: string) => `bench-${id}`;

/**
 * Seeds `dataDir` (created when missing; it must not hold a database unless `reuse` is set
 * and a finished seed of the same scale is there, which is then kept as it is).
 */
export async function seed(
  dataDir: string,
  scale: SeedScale,
  options: { reuse?: boolean; log?: (m: string) => void } = {},
): Promise<SeedResult> {
  const log = options.log ?? (() => {});
  const dbFile = join(dataDir, 'taskreward.db');
  const marker = join(dataDir, MARKER);
  if (options.reuse && existsSync(marker)) {
    const earlier = JSON.parse(readFileSync(marker, 'utf8')) as SeedResult;
    if (sameScale(earlier.scale, scale)) {
      log(`reusing the seeded folder ${dataDir}`);
      // a folder seeded by an earlier version is brought to this one's schema first, as an
      // operator's upgrade would: a move or a doctor would otherwise refuse it
      const migrated = spawnSync(process.execPath, [SERVER_ENTRY, 'migrate'], {
        env: { ...process.env, DATA_DIR: dataDir },
        encoding: 'utf8',
      });
      if (migrated.status !== 0) throw new Error(`migrate failed:\n${migrated.stdout}${migrated.stderr}`);
      return { ...earlier, reused: true };
    }
  }
  if (existsSync(dbFile)) throw new Error(`${dbFile} exists: seed an empty folder`);
  if (scale.submissions % scale.users !== 0 || scale.tasks % (scale.submissions / scale.users) !== 0)
    throw new Error('submissions must be a multiple of users, and tasks a multiple of submissions per user');
  mkdirSync(dataDir, { recursive: true });
  const t0 = performance.now();

  // the schema of the real migrations, and the admin of ADMIN_EMAIL / ADMIN_PASSWORD
  const migrated = spawnSync(process.execPath, [SERVER_ENTRY, 'migrate'], {
    env: { ...process.env, DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    encoding: 'utf8',
  });
  if (migrated.status !== 0) throw new Error(`migrate failed:\n${migrated.stdout}${migrated.stderr}`);
  const tMigrated = performance.now();
  const passwordHash = await hashPassword(SEED_PASSWORD);

  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -524288'); // 512 MiB while loading
  db.pragma('temp_store = MEMORY');
  const adminId = (db.prepare("SELECT _id FROM users WHERE role = 'admin'").get() as { _id: string })._id;

  const tables = ['users', 'tasks', 'user_tasks', 'submissions', 'withdrawals', 'ledger'];
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
       AND tbl_name IN (${tables.map(() => '?').join(',')})`,
    )
    .all(...tables) as { name: string; sql: string }[];
  for (const ix of indexes) db.exec(`DROP INDEX ${ix.name}`);

  // the seeded history ends just before the audit log began (its first row, written by the
  // migration): doctor compares the ledger with the log from then on, and a seeded reward dated
  // after it would have no approval there
  const auditStart = db.prepare("SELECT at FROM audit_log WHERE action = 'audit.start'").get() as
    | { at: string }
    | undefined;
  const now = Math.min(Date.now(), auditStart ? Date.parse(auditStart.at) - 1_000 : Number.POSITIVE_INFINITY);
  const iso = (ms: number) => new Date(ms).toISOString();
  const rand = prng(7);
  const userCreated = (u: number) => now - 400 * DAY + Math.floor((u * 400 * DAY) / scale.users);
  const taskCreated = (t: number) => now - 380 * DAY + Math.floor((t * 370 * DAY) / scale.tasks);

  const insertUser = db.prepare(
    `INSERT INTO users (_id, name, email, password_hash, role, status, ban_reason, balance, total_earned,
       phone, created_at, updated_at, last_active, name_search)
     VALUES (?, ?, ?, ?, 'user', ?, ?, 0, 0, ?, ?, ?, ?, ?)`,
  );
  const insertTask = db.prepare(
    `INSERT INTO tasks (_id, title, description, category, reward, deadline, difficulty, status,
       max_completions, required_proof, task_link, is_featured, steps, requirements, estimated_time,
       rating, total_completed, reserved, created_by, created_at, updated_at, deleted_at,
       search_title, search_body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1000, 'screenshot', NULL, ?, '[]', '[]', ?, 4.5, 0, 0, ?, ?, ?, ?, ?, ?)`,
  );
  const insertUserTask = db.prepare(
    `INSERT INTO user_tasks (_id, user_id, task_id, status, automatic_comment, started_at, completed_at)
     VALUES (?, ?, ?, 'completed', NULL, ?, ?)`,
  );
  const insertSubmission = db.prepare(
    `INSERT INTO submissions (_id, user_task_id, user_id, task_id, status, description, feedback,
       rejection_reason, reward, proof_file, proof_hash, proof_print, proof_b0, proof_b1, proof_b2,
       proof_b3, proof_b4, proof_b5, created_at, updated_at, reviewed_by, reviewed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertWithdrawal = db.prepare(
    `INSERT INTO withdrawals (_id, user_id, amount, payment_method, full_name, account_number, status,
       rejection_reason, description, created_at, updated_at, reviewed_by, reviewed_at, full_name_search)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
  );
  const insertLedger = db.prepare(
    'INSERT INTO ledger (user_id, amount, kind, ref, actor_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const setUserMoney = db.prepare('UPDATE users SET balance = ?, total_earned = ? WHERE _id = ?');
  const setTaskCounts = db.prepare('UPDATE tasks SET reserved = ?, total_completed = ? WHERE _id = ?');

  // every seeded user holds a signed-in session (bench/app.ts signs its tokens for them): a sign-in
  // is a row the server checks on each request, as in production, without argon2 at set-up
  const stamp = passwordStamp(
    passwordHash,
    new TextEncoder().encode(readFileSync(join(dataDir, 'secret.key'), 'utf8').trim()),
  );
  const insertSession = db.prepare(
    `INSERT INTO sessions (id, user_id, password_stamp, remember, created_at, last_seen_at, expires_at,
       user_agent, ip) VALUES (?, ?, ?, 0, ?, ?, '9999-12-31T00:00:00.000Z', 'bench', NULL)`,
  );
  const rows = { users: 0, tasks: 0, user_tasks: 0, submissions: 0, withdrawals: 0, ledger: 0 };
  const chunked = (count: number, write: (from: number, to: number) => void) => {
    const step = 50_000;
    const tx = db.transaction((from: number, to: number) => write(from, to));
    for (let from = 0; from < count; from += step) tx(from, Math.min(count, from + step));
  };

  // users: 2% suspended, 1% banned; the rest active
  chunked(scale.users, (from, to) => {
    for (let u = from; u < to; u++) {
      const status = u % 100 === 37 ? 'banned' : u % 50 === 11 ? 'suspended' : 'active';
      const created = iso(userCreated(u));
      const name = `Kullanıcı ${u}`;
      insertUser.run(
        userId(u),
        name,
        userEmail(u),
        passwordHash,
        status,
        status === 'banned' ? 'spam' : null,
        u % 3 === 0 ? `+90555${String(u).padStart(7, '0')}` : null,
        created,
        created,
        iso(now - (u % 90) * DAY),
        foldSearch(name),
      );
      insertSession.run(benchSessionId(userId(u)), userId(u), stamp, created, created);
      rows.users++;
    }
  });

  // tasks: 1 in 7 inactive, 1 in 10 past its deadline, 1 in 97 deleted, 1 in 50 featured
  const taskReward = new Int32Array(scale.tasks);
  chunked(scale.tasks, (from, to) => {
    for (let t = from; t < to; t++) {
      const created = iso(taskCreated(t));
      taskReward[t] = 100 + ((t * 37) % 9000);
      const title = `Görev ${t} ${TITLES[t % TITLES.length]}`;
      const description = `Açıklama ${t}: adımları izleyin ve ekran görüntüsü yükleyin`;
      const category = CATEGORIES[t % CATEGORIES.length];
      insertTask.run(
        taskId(t),
        title,
        description,
        category,
        taskReward[t],
        t % 10 === 0 ? iso(now - 5 * DAY) : t % 3 === 0 ? iso(now + 400 * DAY) : null,
        DIFFICULTIES[t % 3],
        t % 7 === 0 ? 'inactive' : 'active',
        t % 50 === 0 ? 1 : 0,
        t % 5 === 0 ? null : 1 + ((t * 13) % 120),
        adminId,
        created,
        created,
        t % 97 === 0 ? iso(now - 30 * DAY) : null,
        taskSearchTitle(title),
        taskSearchBody(description, category),
      );
      rows.tasks++;
    }
  });

  // submissions, one user task record each: 70% approved (a reward row), 20% rejected, 10% pending
  const stride = taskStride(scale);
  const earned = new Float64Array(scale.users);
  const reserved = new Int32Array(scale.tasks);
  const completed = new Int32Array(scale.tasks);
  const printRand = prng(17); // its own stream: the other columns stay as they were
  chunked(scale.submissions, (from, to) => {
    for (let k = from; k < to; k++) {
      const u = k % scale.users;
      const j = Math.floor(k / scale.users);
      const t = (u + j * stride) % scale.tasks;
      const start = Math.max(userCreated(u), taskCreated(t));
      const createdMs = start + Math.floor(rand() * (now - start - 60_000));
      const created = iso(createdMs);
      const r = rand();
      const status = r < 0.7 ? 'approved' : r < 0.9 ? 'rejected' : 'pending';
      const reviewed =
        status === 'pending' ? null : iso(Math.min(now, createdMs + Math.floor(rand() * 2 * DAY)));
      const utId = hexId(3, k);
      const subId = hexId(4, k);
      const reward = taskReward[t];
      const hash = randomFingerprint(printRand, 64);
      const print = randomContentPrint(printRand);
      insertUserTask.run(utId, userId(u), taskId(t), created, created);
      insertSubmission.run(
        subId,
        utId,
        userId(u),
        taskId(t),
        status,
        `Kanıt ${k}`,
        status === 'pending' ? null : status === 'approved' ? 'task completed successfully' : 'eksik',
        status === 'rejected' ? REJECTION_REASONS[k % REJECTION_REASONS.length] : null,
        reward,
        hash,
        print,
        ...bandsOf(print),
        created,
        reviewed ?? created,
        status === 'pending' ? null : adminId,
        reviewed,
      );
      rows.user_tasks++;
      rows.submissions++;
      if (status !== 'rejected') reserved[t]++;
      if (status === 'approved') {
        completed[t]++;
        earned[u] += reward;
        insertLedger.run(userId(u), reward, 'reward', subId, adminId, reviewed);
        rows.ledger++;
      }
    }
  });

  // withdrawals: spread over the users with earnings, each a fifth of what the user earned;
  // 70% approved, 20% pending, 10% rejected (held, then refunded)
  const balance = Float64Array.from(earned);
  const perUserW = Math.ceil(scale.withdrawals / scale.users);
  let w = 0;
  chunked(scale.users, (from, to) => {
    for (let u = from; u < to && w < scale.withdrawals; u++) {
      const amount = Math.floor(earned[u] / 5);
      if (amount < 1) continue;
      for (let n = 0; n < perUserW + 1 && w < scale.withdrawals && balance[u] >= amount; n++) {
        // one extra for every few users makes up for those that earned nothing
        if (n === perUserW && u % 50 !== 0) break;
        const createdMs = userCreated(u) + Math.floor(rand() * (now - userCreated(u) - 60_000));
        const created = iso(createdMs);
        const r = rand();
        const status = r < 0.7 ? 'approved' : r < 0.9 ? 'pending' : 'rejected';
        const reviewed =
          status === 'pending' ? null : iso(Math.min(now, createdMs + Math.floor(rand() * DAY)));
        const id = hexId(5, w);
        const holder = `Kullanıcı ${u}`;
        insertWithdrawal.run(
          id,
          userId(u),
          amount,
          w % 3 === 0 ? 'iban' : 'papara',
          holder,
          w % 3 === 0 ? iban(u) : papara(u),
          status,
          status === 'rejected' ? 'Hesap bilgileri hatalı' : null,
          created,
          reviewed ?? created,
          status === 'pending' ? null : adminId,
          reviewed,
          foldSearch(holder),
        );
        insertLedger.run(userId(u), -amount, 'withdrawal_hold', id, userId(u), created);
        rows.ledger++;
        if (status === 'rejected') {
          insertLedger.run(userId(u), amount, 'withdrawal_refund', id, adminId, reviewed);
          rows.ledger++;
        } else {
          balance[u] -= amount;
        }
        w++;
        rows.withdrawals++;
      }
    }
  });
  if (w < scale.withdrawals) throw new Error(`only ${w} withdrawals fit the seeded earnings`);

  chunked(scale.users, (from, to) => {
    for (let u = from; u < to; u++) if (earned[u] > 0) setUserMoney.run(balance[u], earned[u], userId(u));
  });
  chunked(scale.tasks, (from, to) => {
    for (let t = from; t < to; t++) setTaskCounts.run(reserved[t], completed[t], taskId(t));
  });
  const tRows = performance.now();
  log(`rows written in ${((tRows - tMigrated) / 1000).toFixed(1)} s; building indexes`);

  for (const ix of indexes) db.exec(ix.sql);
  const tIndexes = performance.now();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const tDone = performance.now();

  const result: SeedResult = {
    dataDir,
    scale,
    rows,
    ms: {
      total: tDone - t0,
      migrate: tMigrated - t0,
      rows: tRows - tMigrated,
      indexes: tIndexes - tRows,
      checkpoint: tDone - tIndexes,
    },
    reused: false,
    dbBytes: statSync(dbFile).size,
  };
  writeFileSync(marker, JSON.stringify(result, null, 2));
  return result;
}
