import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * SQLite's own checkpoint (wal_autocheckpoint, every 1,000 WAL pages) runs inside the commit that
 * crosses the mark, on the server's one connection: the event loop stops while the WAL's pages
 * are copied into the database file and that file is fsynced, every request waiting meanwhile
 * (at the bench's scale an approval writes ~46 pages: a checkpoint every ~20 approvals). The
 * server instead copies the WAL from a worker thread with a connection of its own, so the copy and
 * its fsync run beside the requests. A PASSIVE checkpoint never waits for the writer or a reader.
 *
 * The connection keeps its own automatic checkpoint, further out (FALLBACK_AUTOCHECKPOINT_PAGES):
 * SQLite starts the WAL again from its beginning only when a write begins with every frame
 * copied, which under a steady stream of writes happens only right after the writer's own
 * checkpoint. By then the worker has copied nearly everything, so that checkpoint copies the
 * last few pages (nothing copied: no fsync either) and the WAL file stays bounded. If the worker
 * stops, the same mark keeps the WAL from growing without end.
 *
 * The worker loads the very addon file the server loaded (the same package, or in the single
 * binary the same unpacked file): two copies of SQLite in one process would not see each other's
 * locks on the file (POSIX locks belong to the process), which is how databases get corrupted.
 */

/** How often the worker looks for pages to copy while nothing is being written. */
export const CHECKPOINT_IDLE_MS = 100;
/** How soon it looks again after it copied some: under writes it keeps close behind them. */
export const CHECKPOINT_BUSY_MS = 10;
/** The connection's own mark (4,000 pages: 16 MB of WAL at 4 KiB pages; SQLite's default is 1,000). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 4000;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

/** The worker's code: CommonJS, run with `eval` (the single binary has no file to point at). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const Database = createRequire(workerData.entry)(workerData.entry);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 1000 });
// a checkpoint copies pages without its connection's cache: keep that cache small
db.pragma('cache_size = -256');
let timer = null;
let stopped = false;
let copied = 0;
const tick = () => {
  timer = null;
  if (stopped) return;
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  // frames copied by this checkpoint: its total backfilled less the last one's (the WAL restarts
  // from 0 after a complete one)
  const fresh = result.checkpointed >= copied ? result.checkpointed - copied : result.checkpointed;
  copied = result.checkpointed;
  if (fresh > 0) parentPort.postMessage({ kind: 'checkpoint', log: result.log, checkpointed: result.checkpointed, fresh });
  timer = setTimeout(tick, fresh > 0 ? workerData.busyMs : workerData.idleMs);
};
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  stopped = true;
  if (timer) clearTimeout(timer);
  db.close();
  parentPort.postMessage({ kind: 'stopped' });
  parentPort.close();
});
tick();
`;

/** better-sqlite3's entry as this process resolves it (the single binary passes its unpacked copy's). */
function packageEntry(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}

export interface Checkpointer {
  /** The last checkpoint that copied frames: frames in the WAL, copied in all, and copied by it. */
  readonly last: { log: number; checkpointed: number; fresh: number } | null;
  /** Frames the worker has copied since it started. */
  readonly copied: number;
  /** Stops the worker and closes its connection; the server's connection then checkpoints at close. */
  stop(): Promise<void>;
}

/**
 * Starts the checkpointing worker for the server's connection `sqlite` on `file`, and moves the
 * connection's own automatic checkpoint out of the way. If the worker fails, the connection gets
 * SQLite's default back and `onFailure` hears why.
 */
export function startCheckpointer(
  sqlite: Database.Database,
  file: string,
  options: {
    idleMs?: number;
    /** better-sqlite3's entry file, when not the package this module resolves (the single binary's) */
    entry?: string;
    onFailure?: (err: unknown) => void;
    /** Told the frames each checkpoint copied (the server counts them in its metrics). */
    onCopied?: (frames: number) => void;
  } = {},
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      idleMs: options.idleMs ?? CHECKPOINT_IDLE_MS,
      busyMs: CHECKPOINT_BUSY_MS,
      entry: options.entry ?? packageEntry(),
    },
    // one connection's pages and a timer: a small heap is plenty
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    stdout: false,
    stderr: false,
  });
  // the server's process ends when its work does, not when this timer says
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  let last: Checkpointer['last'] = null;
  let copied = 0;
  let stopping: Promise<void> | null = null;
  let failed = false;
  const fallBack = (err: unknown) => {
    if (failed || stopping) return;
    failed = true;
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    options.onFailure?.(err);
  };
  worker.on('message', (m: { kind: string; log: number; checkpointed: number; fresh: number }) => {
    if (m.kind !== 'checkpoint') return;
    last = { log: m.log, checkpointed: m.checkpointed, fresh: m.fresh };
    copied += m.fresh;
    options.onCopied?.(m.fresh);
  });
  worker.on('error', fallBack);
  worker.on('exit', (code) => fallBack(new Error(`the checkpoint worker exited (code ${code})`)));
  return {
    get last() {
      return last;
    },
    get copied() {
      return copied;
    },
    stop() {
      if (stopping) return stopping;
      if (failed) {
        stopping = Promise.resolve();
        return stopping;
      }
      stopping = new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(deadline);
          resolve();
        };
        // a worker stuck in a checkpoint (a disk that does not answer) must not hold the shutdown
        const deadline = setTimeout(() => void worker.terminate().then(done, done), 5000);
        worker.on('message', (m: { kind: string }) => {
          if (m.kind === 'stopped') void worker.terminate().then(done, done);
        });
        worker.once('exit', done);
        worker.postMessage('stop');
      });
      return stopping;
    },
  };
}
