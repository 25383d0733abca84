import { leaveOutOfStamp } from '../../db/change-stamp';
import type { Db } from '../../db/database';
import { dialectOf } from '../../db/dialect';
import { touchSession, touchSessionsMany } from './sessions.repository';
import { type DueHeartbeat, touchLastActive, touchLastActiveMany } from './users.repository';

/**
 * How often a user's activity is written at most: lastActive follows the user's requests, and
 * to the minute is close enough for "last seen" while sparing a write on every request.
 */
export const LAST_ACTIVE_INTERVAL_MS = 60_000;

/** How long a heartbeat waits in memory for others to share its transaction. */
export const ACTIVITY_FLUSH_MS = 1_000;

/**
 * The same on PostgreSQL, longer: there every commit moves the snapshot that dates every node's
 * remembered reads (db/change-stamp.ts; SQLite leaves the heartbeats out of its stamp), so each
 * batch makes every signed-in read of every node read again once. "Last seen" is kept to the
 * minute; a few seconds more in memory cost nothing a user sees.
 */
export const PG_ACTIVITY_FLUSH_MS = 5_000;

interface Due {
  at: string;
  notBefore: string;
}

/**
 * The signed-in users' heartbeats (users.last_active, sessions.last_seen_at), collected in
 * memory and written together once a second (every five on PostgreSQL): one commit and one fsync
 * for every user seen in that time, where each user's first request of a minute paid its own
 * (with many users, nearly every request). A crash loses at most those seconds' "last seen"
 * times; nothing else goes through here. Each write stays conditional (older than a minute), so
 * nodes sharing a database still move a row at most once a minute. `close` writes what is
 * waiting (the server's stop); tests call `flush` before they read the columns.
 */
export class ActivityWriter {
  private users = new Map<string, Due>();
  private sessions = new Map<string, Due>();
  /** the latest time queued per user and session, so a row read before its write lands is not due again */
  private readonly queuedUsers = new Map<string, string>();
  private readonly queuedSessions = new Map<string, string>();
  private latestNotBefore = '';
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly flushMs = dialectOf(db) === 'postgres' ? PG_ACTIVITY_FLUSH_MS : ACTIVITY_FLUSH_MS,
  ) {}

  /**
   * Notes a signed-in request at `now` of a user whose row says `lastActive` and a session whose
   * row says `lastSeenAt`; queues whichever is empty or a minute old. The user's last_active as
   * it is after this request (the queued time when it was queued, here or by an earlier one).
   */
  note(
    userId: string,
    lastActive: string | null,
    sessionId: string,
    lastSeenAt: string,
    now: Date,
  ): string | null {
    const at = now.toISOString();
    const notBefore = new Date(now.getTime() - LAST_ACTIVE_INTERVAL_MS).toISOString();
    if (notBefore > this.latestNotBefore) this.latestNotBefore = notBefore;
    const shown = later(lastActive, this.queuedUsers.get(userId));
    const seen = later(lastSeenAt, this.queuedSessions.get(sessionId)) as string;
    let active = shown;
    if (active === null || active < notBefore) {
      this.users.set(userId, { at, notBefore });
      this.queuedUsers.set(userId, at);
      active = at;
    }
    if (seen < notBefore) {
      this.sessions.set(sessionId, { at, notBefore });
      this.queuedSessions.set(sessionId, at);
    }
    if (this.timer === null && (this.users.size > 0 || this.sessions.size > 0)) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.flushMs);
      this.timer.unref();
    }
    return active;
  }

  /** Writes every waiting heartbeat in one transaction; resolves once written (or given up). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Stops the timer and writes what is waiting (the app's close). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async write(): Promise<void> {
    const users = this.users;
    const sessions = this.sessions;
    this.users = new Map();
    this.sessions = new Map();
    // a time older than the latest minute no longer keeps anything from being due: the row,
    // read again after the write moved the change stamp, says it (or, after a failed write,
    // the user's next request queues it again)
    for (const [id, at] of this.queuedUsers) if (at < this.latestNotBefore) this.queuedUsers.delete(id);
    for (const [id, at] of this.queuedSessions) if (at < this.latestNotBefore) this.queuedSessions.delete(id);
    if (users.size === 0 && sessions.size === 0) return;
    if (dialectOf(this.db) === 'postgres') {
      // one statement per table for the whole batch: each commit moves the snapshot that
      // PostgreSQL's remembered reads are stamped with (db/change-stamp.ts), so a commit per
      // row (with many users signed in, one per request) kept every remembered read from being
      // used. The statement skips the rows a money move holds instead of waiting for them.
      await writeBatches(sessions, this.queuedSessions, (due) => touchSessionsMany(this.db, due));
      await writeBatches(users, this.queuedUsers, (due) => touchLastActiveMany(this.db, due));
      return;
    }
    // heartbeats do not count as a change for the remembered reads (db/change-stamp.ts): the
    // times this writer queued are what a signed-in request shows (note), whatever was read.
    // Each row is left out as its statement changes it, inside the transaction. A stamp read
    // while the transaction is open is the one of what is committed, with the rows left out as
    // they were when it was read (db/database.ts), so the stamp never takes a value a later real
    // write could bring back. A rolled-back row still counts in total_changes() and stays left
    // out, as it should: the data is as before.
    const leave = (changed: boolean) => leaveOutOfStamp(this.db, changed ? 1 : 0);
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const [id, due] of sessions) leave(await touchSession(trx, id, due.at, due.notBefore));
        for (const [id, due] of users) leave(await touchLastActive(trx, id, due.at, due.notBefore));
      });
    } catch {
      // activity is a hint: a failed write (a locked database, a closed one) is dropped, and
      // the users' next requests queue it again
      for (const id of users.keys()) this.queuedUsers.delete(id);
      for (const id of sessions.keys()) this.queuedSessions.delete(id);
    }
  }
}

/** Rows per statement: a batch's locks are held until its commit, kept short. */
const PG_BATCH_ROWS = 500;

/**
 * Writes the due heartbeats in statements of PG_BATCH_ROWS. A row a statement did not write
 * (skipped as locked, already written by another node, or a failed statement) is no longer
 * queued, so the user's next request reads the row again and queues it if it is still due.
 */
async function writeBatches(
  due: Map<string, Due>,
  queued: Map<string, string>,
  write: (rows: DueHeartbeat[]) => Promise<Set<string>>,
): Promise<void> {
  const rows = [...due].map(([id, d]) => ({ id, at: d.at, notBefore: d.notBefore }));
  for (let i = 0; i < rows.length; i += PG_BATCH_ROWS) {
    const batch = rows.slice(i, i + PG_BATCH_ROWS);
    const written = await write(batch).catch(() => new Set<string>());
    for (const row of batch) if (!written.has(row.id)) queued.delete(row.id);
  }
}

function later(a: string | null, b: string | undefined): string | null {
  if (b === undefined) return a;
  return a === null || b > a ? b : a;
}
