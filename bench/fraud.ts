// The fraud signals' figures on a seeded folder: what the fraud signals cost the requests that compute
// them, at the bench's scale (1,000,000 proofs with fingerprints, 200,000 withdrawals).
//
// 1. In this process, through the app's own database layer (db/database.ts openDatabase: the
//    server's settings, its statement cache) and the server's own functions:
//    - findDuplicateProofs, what an upload runs before its transaction, for random new hashes
//      (no earlier proof is the same picture: every upload but a fraudster's) and for hashes
//      made near a seeded proof (a hit), with how many candidates the band lookups read,
//      how often a band reached its cap, and whether the near proof was found;
//    - flagSharedPayout, what a withdrawal request runs in its transaction (rolled back here),
//      for account numbers no other account used and for shared ones (it then writes a flag);
//    - the query plans of those statements (EXPLAIN QUERY PLAN of the SQL the app ran).
// 2. Over HTTP, on the real server (one client, one request at a time): proof uploads of
//    distinct pictures, uploads of one picture many proofs already show, and withdrawal
//    requests to an account number of one's own and to another account's. The signals cannot
//    be switched off in the server, so their share of a request is the in-process time of step 1
//    against the request's time measured here.
// The folder keeps what step 2 wrote (submissions, withdrawals, flags), like the other scenarios.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { startServerProcess } from '../faults/server';
import { openDatabase } from '../src-server/db/database';
import {
  BAND_BITS,
  BAND_COLUMNS,
  OWN_BAND_RADIUS as BAND_RADIUS,
  BANDS,
  bandLookups,
  bandsOf,
  CANDIDATE_HASH_BITS,
  distanceFrom,
} from '../src-server/features/fraud/fingerprint-bands';
import { closeProofs, proofCandidateHashes } from '../src-server/features/fraud/fraud.repository';
import {
  findDuplicateProofs,
  flagSharedPayout,
  MAX_CLOSE_CANDIDATES,
} from '../src-server/features/fraud/signals';
import { signToken } from '../src-server/features/users/token';
import type { UserRow } from '../src-server/features/users/users.repository';
import type { ContentPrints } from '../src-server/storage/content-print';
import { sanitizeProof } from '../src-server/storage/image';
import { multipart, proofPng, seededFixtures } from './app';
import { quantile, type RequestSpec, send } from './load';
import { benchSessionId, prng, randomContentPrint, randomFingerprint, userId } from './seed';

/**
 * What an upload looks a new proof up with: its own prints and, as the server makes them, 14
 * more probes of the same picture cropped (storage/content-print.ts), a few bits from its own.
 */
function probeSet(hash: string, print: string, rand: () => number): ContentPrints[] {
  return [
    { hash, print },
    ...Array.from({ length: 14 }, () => ({
      hash: perturb(hash, 1 + Math.floor(rand() * 3), rand),
      print: perturb(print, 4, rand),
    })),
  ];
}

/** The nearest of a probe set's hashes to a stored one, in bits. */
function distanceFromAny(probes: ContentPrints[]): (h: string) => number {
  const ds = probes.map((p) => distanceFrom(p.hash));
  return (h) => Math.min(...ds.map((d) => d(h)));
}

/** How many bits of a band value are set. */
function bitCount(v: number): number {
  let n = 0;
  for (let x = v >>> 0; x; x &= x - 1) n++;
  return n;
}

/** The cap of each band's lookup (fraud.repository.ts CANDIDATES_PER_BAND). */
const BAND_CAP = 20_000;

export interface Timing {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LookupFigures {
  /** findDuplicateProofs, whole */
  total: Timing;
  /** its band lookups alone (proofCandidateHashes) */
  bands: Timing;
  /** its read of the close candidates' rows alone (closeProofs: those within 12 bits) */
  prints: Timing;
  /** different hashes the band lookups find */
  candidates: { p50: number; p99: number; max: number };
}

export interface HitFigures {
  /** hash distance from the seeded proof (bits); the print differs in printBits */
  distance: number;
  tried: number;
  found: number;
  /** missed with a band within BAND_RADIUS bits of the seeded proof's, which the band's cap cut off */
  cutByCap: number;
  /** missed with no band within BAND_RADIUS bits (the bands cannot find it: only past 11 bits) */
  noBandClose: number;
  total: Timing;
}

export interface HttpFigures {
  label: string;
  timing: Timing;
  /** requests that did not get the expected status */
  failed: number;
  /** flags the requests wrote, by kind */
  flags: Record<string, number>;
}

export interface FraudBench {
  proofs: number;
  withdrawals: number;
  miss: LookupFigures;
  /** per band: the share of lookups whose band matched more rows than the cap, and the mean rows matched */
  bandRows: { band: number; meanRows: number; overCap: number }[];
  hits: HitFigures[];
  /** the picture the HTTP uploads repeat: its candidates and its lookup time before them */
  payout: { unshared: Timing; shared: Timing; sharedOthers: number };
  plans: { what: string; sql: string; plan: string[] }[];
  http: {
    upload: HttpFigures;
    uploadSame: HttpFigures & { copiesBefore: number };
    withdraw: HttpFigures;
    withdrawShared: HttpFigures;
    proof: { width: number; height: number; bytes: number; variants: number };
  };
  /** lookups per band value list and the cap, for the text */
  bandValues: number;
}

const timing = (ms: number[]): Timing => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s[s.length - 1] ?? 0 };
};

/** `hex` with `swaps` of its set bits cleared and as many clear bits set (never the first bit): 2 × swaps bits away. */
function perturb(hex: string, swaps: number, rand: () => number): string {
  const bits = hex.length * 4;
  const words = Array.from({ length: bits / 32 }, (_, i) => Number.parseInt(hex.slice(i * 8, i * 8 + 8), 16));
  const bit = (p: number) => (words[p >>> 5] >>> (31 - (p & 31))) & 1;
  const ones: number[] = [];
  const zeros: number[] = [];
  for (let p = 1; p < bits; p++) (bit(p) ? ones : zeros).push(p);
  const pick = (from: number[]) => from.splice(Math.floor(rand() * from.length), 1)[0];
  for (let k = 0; k < swaps; k++) {
    for (const p of [pick(ones), pick(zeros)]) words[p >>> 5] ^= 1 << (31 - (p & 31));
  }
  return words.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
}

/**
 * A variant of the proof picture: a few large blocks of it made lighter or darker (the noise
 * kept, so it compresses like the original), which moves its low frequencies: another hash.
 */
async function pictureVariant(
  raw: { data: Buffer; width: number; height: number; channels: number },
  rand: () => number,
): Promise<Buffer> {
  const data = Buffer.from(raw.data);
  const { width, height, channels } = raw;
  for (let b = 0; b < 4; b++) {
    const w = Math.floor(width * (0.2 + rand() * 0.5));
    const h = Math.floor(height * (0.1 + rand() * 0.3));
    const x0 = Math.floor(rand() * (width - w));
    const y0 = Math.floor(rand() * (height - h));
    const shift = Math.floor((rand() < 0.5 ? -1 : 1) * (60 + rand() * 60));
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const i = (y * width + x) * channels;
        for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, data[i + c] + shift));
      }
    }
  }
  // encoded by pngjs like the bench's proof (bench/app.ts proofPng), so the bytes compare
  const png = new PNG({ width, height });
  if (channels === 4) data.copy(png.data);
  else
    for (let i = 0, j = 0; i < data.length; i += channels, j += 4)
      png.data.set([data[i], data[i + 1], data[i + 2], 255], j);
  return PNG.sync.write(png);
}

export async function measureFraud(options: {
  dataDir: string;
  quick?: boolean;
  log?: (m: string) => void;
}): Promise<FraudBench> {
  const log = options.log ?? (() => {});
  const quick = options.quick ?? false;
  const dbFile = join(options.dataDir, 'taskreward.db');
  const lookups = quick ? 200 : 500;
  const rand = prng(1717);

  // ---- 1. the lookups in this process, through the app's database layer ----
  const { db, sqlite } = openDatabase(dbFile);
  let result: Omit<FraudBench, 'http'>;
  try {
    const count = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
    const proofs = count('SELECT count(*) AS n FROM submissions WHERE proof_b0 IS NOT NULL');
    const withdrawals = count('SELECT count(*) AS n FROM withdrawals');
    const maxRowid = count('SELECT max(rowid) AS n FROM submissions');
    log(
      `${proofs.toLocaleString('en-US')} proofs with fingerprints, ${withdrawals.toLocaleString('en-US')} withdrawals`,
    );
    const other = { userId: 'bench-fraud-user', taskId: 'bench-fraud-task' };

    // new pictures: random hashes of the server's shape; a warm-up first (JIT, statement cache)
    const fresh = Array.from({ length: lookups }, () => ({
      probes: probeSet(randomFingerprint(rand, 64), randomContentPrint(rand), rand),
    }));
    for (const f of fresh.slice(0, 20)) await findDuplicateProofs(db, { ...other, ...f });
    const totalMs: number[] = [];
    for (const f of fresh) {
      const t0 = performance.now();
      await findDuplicateProofs(db, { ...other, ...f });
      totalMs.push(performance.now() - t0);
    }
    const bandMs: number[] = [];
    const printMs: number[] = [];
    const candidateCounts: number[] = [];
    for (const f of fresh) {
      // as findDuplicateProofs does: the band lookups' hashes, keeping the close ones, then the
      // proofs of those (one read here: a random new picture has few close hashes)
      const distance = distanceFromAny(f.probes);
      const t0 = performance.now();
      const found = await proofCandidateHashes(db, f.probes);
      const near = [...found.bands.keys()]
        .filter((h) => distance(h) <= CANDIDATE_HASH_BITS)
        .sort((a, b) => distance(a) - distance(b))
        .slice(0, MAX_CLOSE_CANDIDATES);
      const t1 = performance.now();
      await closeProofs(db, found, near, { limit: MAX_CLOSE_CANDIDATES });
      printMs.push(performance.now() - t1);
      bandMs.push(t1 - t0);
      candidateCounts.push(found.bands.size);
    }
    const sortedCounts = [...candidateCounts].sort((a, b) => a - b);
    const miss: LookupFigures = {
      total: timing(totalMs),
      bands: timing(bandMs),
      prints: timing(printMs),
      candidates: {
        p50: quantile(sortedCounts, 0.5),
        p99: quantile(sortedCounts, 0.99),
        max: sortedCounts[sortedCounts.length - 1] ?? 0,
      },
    };
    log(
      `lookup, new picture: p50 ${miss.total.p50.toFixed(2)} ms, p99 ${miss.total.p99.toFixed(2)} ms` +
        ` (bands p50 ${miss.bands.p50.toFixed(2)} ms, prints p50 ${miss.prints.p50.toFixed(2)} ms);` +
        ` candidates p50 ${miss.candidates.p50}, p99 ${miss.candidates.p99}, max ${miss.candidates.max}`,
    );

    // how many rows each band's value list matches before the cap
    const bandValues = bandLookups(fresh[0].probes)[0].length;
    const countBand = (b: number, values: number[]) =>
      (
        sqlite
          .prepare(
            `SELECT count(*) AS n FROM submissions WHERE proof_b${b} IN (${Array(values.length).fill('?').join(',')})`,
          )
          .get(...values) as { n: number }
      ).n;
    const sample = fresh.slice(0, quick ? 50 : 100);
    const bandRows = BAND_COLUMNS.map((_, b) => {
      const rows = sample.map((f) => countBand(b, bandLookups(f.probes)[b]));
      return {
        band: b,
        meanRows: rows.reduce((a, n) => a + n, 0) / rows.length,
        overCap: rows.filter((n) => n > BAND_CAP).length / rows.length,
      };
    });
    log(
      `rows per band before the cap of ${BAND_CAP}: ${bandRows.map((r) => `b${r.band} ${r.meanRows.toFixed(0)} (over the cap in ${(r.overCap * 100).toFixed(0)}%)`).join(', ')}`,
    );

    // hits: a new proof near a seeded one (another account's), at several hash distances
    const seededAt = sqlite.prepare('SELECT _id, proof_hash, proof_print FROM submissions WHERE rowid = ?');
    const hits: HitFigures[] = [];
    const perDistance = quick ? 40 : 100;
    for (const swaps of [0, 2, 4, 5, 6]) {
      const ms: number[] = [];
      let found = 0;
      let tried = 0;
      let cutByCap = 0;
      let noBandClose = 0;
      while (tried < perDistance) {
        const row = seededAt.get(1 + Math.floor(rand() * maxRowid)) as
          | { _id: string; proof_hash: string | null; proof_print: string | null }
          | undefined;
        if (!row?.proof_hash || !row.proof_print) continue;
        tried++;
        const proof = {
          ...other,
          probes: probeSet(perturb(row.proof_hash, swaps, rand), perturb(row.proof_print, 10, rand), rand),
        };
        const t0 = performance.now();
        const match = await findDuplicateProofs(db, proof);
        ms.push(performance.now() - t0);
        if (match?.ids.includes(row._id)) {
          found++;
          continue;
        }
        const mine = bandsOf(proof.probes[0].print);
        const theirs = bandsOf(row.proof_print);
        const bandClose = mine.some((v, b) => bitCount(v ^ theirs[b]) <= BAND_RADIUS);
        const candidate = (await proofCandidateHashes(db, proof.probes)).bands.has(row.proof_hash);
        if (!bandClose) noBandClose++;
        else if (!candidate) cutByCap++;
      }
      hits.push({ distance: 2 * swaps, tried, found, cutByCap, noBandClose, total: timing(ms) });
      log(
        `lookup, near a seeded proof (${2 * swaps} bits): found ${found} of ${tried} (missed: ${cutByCap} cut by a band's cap, ${noBandClose} with no band within ${BAND_RADIUS} bits);` +
          ` p50 ${timing(ms).p50.toFixed(2)} ms, p99 ${timing(ms).p99.toFixed(2)} ms`,
      );
    }

    // the shared-payout check, in a transaction rolled back (it writes a flag when shared)
    const accounts = sqlite
      .prepare(
        `SELECT account_number, payment_method, user_id FROM withdrawals WHERE rowid IN
         (SELECT abs(random()) % (SELECT max(rowid) FROM withdrawals) + 1 FROM withdrawals LIMIT ?)`,
      )
      .all(lookups) as { account_number: string; payment_method: 'papara' | 'iban'; user_id: string }[];
    const shared = sqlite
      .prepare(
        `SELECT account_number, payment_method, min(user_id) AS user_id FROM withdrawals
         GROUP BY account_number HAVING count(DISTINCT user_id) > 1 LIMIT ?`,
      )
      .all(lookups) as typeof accounts;
    const rollback = new Error('rollback');
    /** Runs `work` in a transaction that is then rolled back. */
    const rolledBack = (work: (trx: Parameters<typeof flagSharedPayout>[0]) => Promise<void>) =>
      db
        .transaction()
        .execute(async (trx) => {
          await work(trx);
          throw rollback;
        })
        .catch((err: unknown) => {
          if (err !== rollback) throw err;
        });
    // an account that holds none of the shared numbers (those of users 41, 42, 141, 142, ...)
    const stranger = userId(5);
    const payoutTimes = async (list: typeof accounts, asOther: boolean) => {
      const ms: number[] = [];
      let flagged = 0;
      for (const a of list) {
        await rolledBack(async (trx) => {
          const t0 = performance.now();
          const flag = await flagSharedPayout(trx, {
            withdrawalId: `bench-fraud-${ms.length}`,
            // the account's own number, or another account's (every holder is then found)
            userId: asOther ? stranger : a.user_id,
            accountNumber: a.account_number,
            method: a.payment_method,
            at: new Date().toISOString(),
          });
          ms.push(performance.now() - t0);
          if (flag) flagged++;
        });
      }
      return { timing: timing(ms), flagged };
    };
    await payoutTimes(accounts.slice(0, 20), false);
    const own = await payoutTimes(accounts, false);
    const others = await payoutTimes(shared, true);
    log(
      `shared payout, own account number: p50 ${own.timing.p50.toFixed(3)} ms, p99 ${own.timing.p99.toFixed(3)} ms (${own.flagged} of ${own.timing.n} shared);` +
        ` a shared one (flag written): p50 ${others.timing.p50.toFixed(3)} ms, p99 ${others.timing.p99.toFixed(3)} ms (${shared.length} shared numbers)`,
    );

    // the plans of the statements the app ran: the same calls again on a connection that records them
    const plans: FraudBench['plans'] = [];
    {
      const recorder = openDatabase(dbFile);
      const seen = new Map<string, unknown[]>();
      // both connections: the reads outside a transaction have one of their own
      for (const connection of [recorder.sqlite, recorder.reader]) {
        if (!connection) continue;
        const prepare = connection.prepare.bind(connection);
        (connection as { prepare: (source: string) => Database.Statement }).prepare = (source: string) => {
          const stmt = prepare(source);
          const all = stmt.all.bind(stmt);
          (stmt as { all: (...params: unknown[]) => unknown[] }).all = (...params: unknown[]) => {
            if (!seen.has(source)) seen.set(source, params);
            return all(...params);
          };
          return stmt;
        };
      }
      try {
        const found = await proofCandidateHashes(recorder.db, fresh[0].probes);
        // the proofs' read as the lookup sends it: close hashes found in every band
        const hashes = new Map(['0123456789abcdef', 'fedcba9876543210'].map((h) => [h, [0, 1, 2, 3, 4, 5]]));
        await closeProofs(recorder.db, { lookups: found.lookups, bands: hashes }, [...hashes.keys()], {
          limit: MAX_CLOSE_CANDIDATES,
        });
        await recorder.db
          .transaction()
          .execute(async (trx) => {
            await flagSharedPayout(trx, {
              withdrawalId: 'x',
              userId: accounts[0].user_id,
              accountNumber: accounts[0].account_number,
              method: accounts[0].payment_method,
              at: new Date().toISOString(),
            });
            throw rollback;
          })
          .catch((err: unknown) => {
            if (err !== rollback) throw err;
          });
      } finally {
        await recorder.db.destroy();
      }
      for (const [sql, params] of seen) {
        const what = /proof_print/.test(sql)
          ? "duplicate lookup, the close hashes' proofs"
          : /proof_b(\d)/.exec(sql)
            ? `duplicate lookup, band ${/proof_b(\d)/.exec(sql)?.[1]}`
            : /account_number/.test(sql)
              ? 'shared payout'
              : null;
        if (!what) continue;
        const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
          (r) => r.detail,
        );
        // the IN lists shortened for reading
        const shown = sql.replace(/\((\?, ){3,}\?\)/g, (m) => `(?, ?, … ${m.split('?').length - 1} values)`);
        plans.push({ what, sql: shown, plan });
        log(`plan, ${what}: ${plan.join(' | ')}`);
      }
      if (plans.length < BANDS + 2) throw new Error(`recorded ${plans.length} of the signals' statements`);
    }

    result = {
      proofs,
      withdrawals,
      miss,
      bandRows,
      hits,
      payout: { unshared: own.timing, shared: others.timing, sharedOthers: shared.length },
      plans,
      bandValues,
    };
  } finally {
    await db.destroy();
  }

  // ---- 2. the requests over HTTP ----
  // a generator of its own for each run: a kept folder holds the pictures of earlier runs
  const http = await measureRequests({ dataDir: options.dataDir, quick, log, rand: prng(Date.now() >>> 0) });
  return { ...result, http };
}

/**
 * The requests over HTTP alone. It also runs against a folder of a build from before the
 * signals (no flags table, no bands: those counts are then empty), for a comparison.
 */
export async function measureRequests(options: {
  dataDir: string;
  quick: boolean;
  log: (m: string) => void;
  rand: () => number;
}): Promise<FraudBench['http']> {
  const { dataDir, quick, log, rand } = options;
  const uploads = quick ? 10 : 30;
  const sameUploads = quick ? 10 : 30;
  const withdraws = quick ? 40 : 150;

  // fixtures, read before the server opens the folder
  const { db: ro, secret, users, openTasks } = seededFixtures(dataDir, new Date().toISOString(), 50);
  const sharedNumbers = (
    ro
      .prepare(
        "SELECT account_number FROM withdrawals WHERE payment_method = 'papara' AND rowid % 97 = 5 LIMIT ?",
      )
      .all(withdraws) as { account_number: string }[]
  ).map((r) => r.account_number);
  ro.close();
  const pickUser = (() => {
    const order = users.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let next = 0;
    return (ok: (u: UserRow & { balance: number }) => boolean) => {
      while (next < order.length) {
        const u = users[order[next++]];
        if (ok(u)) return u;
      }
      throw new Error('out of seeded users');
    };
  })();
  const bearer = async (u: UserRow) => `Bearer ${await signToken(u, false, secret, benchSessionId(u._id))}`;

  // the pictures: the bench's proof, and variants of it with blocks painted over (other hashes)
  const base = proofPng();
  const raw = await sharp(base.bytes).raw().toBuffer({ resolveWithObject: true });
  const variants: Buffer[] = [];
  for (let i = 0; i < uploads + 3; i++)
    variants.push(
      await pictureVariant(
        { data: raw.data, width: raw.info.width, height: raw.info.height, channels: raw.info.channels },
        rand,
      ),
    );
  const meanBytes = variants.reduce((a, v) => a + v.length, 0) / variants.length;
  const { hash: baseHash, print: basePrint } = await sanitizeProof(base.bytes, { allow: ['png'] });
  log(
    `pictures: ${variants.length} variants of ${(meanBytes / 1048576).toFixed(2)} MB on average; the bench's proof hashes to ${baseHash}`,
  );

  // flags by kind and copies of the bench's picture, read beside the server (WAL: a reader never waits)
  const watch = new Database(join(dataDir, 'taskreward.db'), { readonly: true });
  const hasFlags = Boolean(watch.prepare("SELECT 1 FROM sqlite_master WHERE name = 'flags'").get());
  const flagsByKind = () =>
    new Map(
      hasFlags
        ? (
            watch.prepare('SELECT kind, count(*) AS n FROM flags GROUP BY kind').all() as {
              kind: string;
              n: number;
            }[]
          ).map((r) => [r.kind, r.n])
        : [],
    );
  const newFlags = (before: Map<string, number>) => {
    const now = flagsByKind();
    return [...now].map(([kind, n]) => [kind, n - (before.get(kind) ?? 0)] as const).filter(([, n]) => n > 0);
  };
  const copiesOfBase = () =>
    hasFlags
      ? (
          watch
            .prepare('SELECT count(*) AS n FROM submissions WHERE proof_b0 = ? AND proof_hash = ?')
            .get(bandsOf(basePrint)[0], baseHash) as { n: number }
        ).n
      : 0;

  const server = await startServerProcess({ dataDir });
  try {
    const { url } = server;
    const post = (path: string, token: string, body: unknown): RequestSpec => ({
      method: 'POST',
      path,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: token },
    });
    /** A user and a task it had not started, started now. */
    const started = async () => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const user = pickUser(() => true);
        const token = await bearer(user);
        const taskId = openTasks[Math.floor(rand() * openTasks.length)];
        const a = await send(url, post(`/api/tasks/${taskId}/start`, token, {}));
        if (a.status === 201) return { token, taskId };
      }
      throw new Error('could not start a task in 50 attempts');
    };
    const upload = async (picture: Buffer) => {
      const { token, taskId } = await started();
      const form = multipart(
        { task: taskId, description: 'bench fraud proof' },
        { field: 'proofImage', name: 'proof.png', type: 'image/png', bytes: picture },
      );
      return send(url, {
        method: 'POST',
        path: '/api/submissions',
        body: form.body,
        headers: { 'content-type': form.contentType, authorization: token },
      });
    };
    /** `n` requests one at a time (after `warm` unmeasured ones), and the flags they wrote. */
    const run = async (
      label: string,
      n: number,
      once: (i: number) => Promise<{ status: number; ms: number }>,
      warm = 0,
    ): Promise<HttpFigures> => {
      for (let i = 0; i < warm; i++) await once(-1 - i);
      const before = flagsByKind();
      const ms: number[] = [];
      let failed = 0;
      for (let i = 0; i < n; i++) {
        const a = await once(i);
        if (a.status === 201) ms.push(a.ms);
        else failed++;
      }
      const t = timing(ms);
      const flags = Object.fromEntries(newFlags(before));
      log(
        `${label}: p50 ${t.p50.toFixed(2)} ms, p99 ${t.p99.toFixed(2)} ms over ${t.n}${failed ? `, ${failed} FAILED` : ''};` +
          ` flags written: ${JSON.stringify(flags)}`,
      );
      return { label, timing: t, failed, flags };
    };

    const upload1 = await run(
      'proof upload, a new picture',
      uploads,
      (i) => upload(variants[i < 0 ? uploads - 1 - i : i]),
      3,
    );
    const copies = copiesOfBase();
    const uploadSame = await run(
      `proof upload, the bench's picture (${copies} proofs showed it before)`,
      sameUploads,
      () => upload(base.bytes),
    );

    // withdrawal requests of 20 TL: to a number no other account used, and to another account's
    const payer = () => pickUser((u) => u.balance >= 10_000);
    const withdraw = async (shared: string | null) => {
      const user = payer();
      const index = Number.parseInt(user._id.slice(1), 16);
      return send(
        url,
        post('/api/withdraws', await bearer(user), {
          amount: 20,
          paymentMethod: 'papara',
          accountDetails: { fullName: user.name, accountNumber: shared ?? String(2_000_000_000 + index) },
        }),
      );
    };
    for (let i = 0; i < 10; i++) await withdraw(null);
    const withdrawOwn = await run('withdrawal request, a number of its own', withdraws, () => withdraw(null));
    const withdrawShared = await run("withdrawal request, another account's number", withdraws, (i) =>
      withdraw(sharedNumbers[i % sharedNumbers.length]),
    );
    return {
      upload: upload1,
      uploadSame: { ...uploadSame, copiesBefore: copies },
      withdraw: withdrawOwn,
      withdrawShared,
      proof: {
        width: base.width,
        height: base.height,
        bytes: Math.round(meanBytes),
        variants: variants.length,
      },
    };
  } finally {
    await server.stop();
    watch.close();
  }
}

const ms2 = (ms: number) =>
  ms < 1 ? ms.toFixed(3) : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

/**
 * The figures as Markdown. `app`: the upload's and the withdrawal's p50 under the load of the
 * same run (bench/app.ts, 2 and 4 clients), when the whole bench ran.
 */
export function fraudMarkdown(
  f: FraudBench,
  context: { command: string; at: Date; app?: { uploadP50: number; withdrawP50: number } },
): string[] {
  const int = (n: number) => n.toLocaleString('en-US');
  const row = (label: string, t: Timing, extra = '') =>
    `| ${label} | ${t.n} | ${ms2(t.p50)} | ${ms2(t.p99)} | ${ms2(t.max)} |${extra}`;
  const { http } = f;
  const flags = (h: HttpFigures) =>
    Object.entries(h.flags)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  const upload = http.upload.timing;
  const withdraw = http.withdraw.timing;
  const lines = [
    `Measured ${context.at.toISOString().slice(0, 16).replace('T', ' ')} UTC with \`${context.command}\` on the seeded folder: ${int(f.proofs)} proofs with fingerprints, ${int(f.withdrawals)} withdrawals.`,
    '',
    `The duplicate lookup (\`findDuplicateProofs\`: ${BANDS} key lookups (a ${BAND_BITS}-bit key of each of the content's six parts) of about ${f.bandValues} values each (the new proof's own keys within ${BAND_RADIUS} bit, its 14 crop probes' exactly), capped at ${BAND_CAP} rows, then the candidates' prints) and the shared-payout check (\`flagSharedPayout\`, in a transaction rolled back), run in the bench's process through the app's database layer, one at a time after a warm-up:`,
    '',
    '| lookup | runs | p50 ms | p99 ms | max ms | candidates p50 / p99 / max |',
    '|---|---|---|---|---|---|',
    row(
      'duplicate lookup, a new picture (random hash)',
      f.miss.total,
      ` ${f.miss.candidates.p50} / ${f.miss.candidates.p99} / ${f.miss.candidates.max} |`,
    ),
    row(`… of which the ${BANDS} band lookups`, f.miss.bands, ' |'),
    row("… of which reading the candidates' prints", f.miss.prints, ' |'),
    ...f.hits.map((h) =>
      row(
        `duplicate lookup, ${h.distance} bits from a seeded proof: found ${h.found} of ${h.tried}` +
          (h.found < h.tried
            ? ` (missed: ${h.cutByCap} cut by a cap, ${h.noBandClose} no band within ${BAND_RADIUS} bits)`
            : ''),
        h.total,
        ' |',
      ),
    ),
    row('shared payout, a number of its own', f.payout.unshared, ' |'),
    row(
      `shared payout, a number ${f.payout.sharedOthers > 0 ? 'two accounts share' : 'shared'} (flag written)`,
      f.payout.shared,
      ' |',
    ),
    '',
    `Rows each band's ${f.bandValues} values match before the cap (${f.bandRows.length} bands, over the first ${f.miss.total.n >= 100 ? 100 : 50} new pictures): ` +
      f.bandRows
        .map(
          (r) =>
            `band ${r.band} ${r.meanRows.toFixed(0)} on average, over ${BAND_CAP} in ${(r.overCap * 100).toFixed(0)}%`,
        )
        .join('; ') +
      '.',
    '',
    'Query plans of the statements the app ran (EXPLAIN QUERY PLAN; IN lists shortened):',
    '',
    '```',
    ...f.plans.flatMap((p) => [`-- ${p.what}: ${p.sql}`, ...p.plan.map((l) => `   ${l}`)]),
    '```',
    '',
    `Over HTTP, the real server on the same folder, one request at a time (the upload: a ${http.proof.width} × ${http.proof.height} PNG of ${(http.proof.bytes / 1048576).toFixed(2)} MB, the bench's proof with a few large blocks made lighter or darker, a new picture each time):`,
    '',
    '| request | runs | p50 ms | p99 ms | max ms | flags written |',
    '|---|---|---|---|---|---|',
    row(http.upload.label, upload, ` ${flags(http.upload)} |`),
    row(http.uploadSame.label, http.uploadSame.timing, ` ${flags(http.uploadSame)} |`),
    row(http.withdraw.label, withdraw, ` ${flags(http.withdraw)} |`),
    row(http.withdrawShared.label, http.withdrawShared.timing, ` ${flags(http.withdrawShared)} |`),
    '',
    `**What the signals add.** To an upload: the duplicate lookup, ${ms2(f.miss.total.p50)} ms of ${ms2(upload.p50)} ms (${share(f.miss.total.p50, upload.p50)}) at the p50, ${ms2(f.miss.total.p99)} ms of ${ms2(upload.p99)} ms (${share(f.miss.total.p99, upload.p99)}) at the p99` +
      (context.app
        ? `; ${share(f.miss.total.p50, context.app.uploadP50)} of the upload's p50 under the load above (${ms2(context.app.uploadP50)} ms, 2 clients)`
        : '') +
      ` (the too-fast check is arithmetic, and each flag one INSERT in the transaction). To a withdrawal request: the shared-payout check, ${ms2(f.payout.unshared.p50)} ms of ${ms2(withdraw.p50)} ms (${share(f.payout.unshared.p50, withdraw.p50)}) at the p50` +
      (context.app
        ? `; ${share(f.payout.unshared.p50, context.app.withdrawP50)} of the request's p50 under the load above (${ms2(context.app.withdrawP50)} ms, 4 clients)`
        : '') +
      `, ${ms2(f.payout.shared.p50)} ms when it writes a flag.`,
  ];
  return lines;
}
