// Helpers of the crash suite (faults/crash.fault.ts): JSON and multipart calls to the real
// server, a real PNG, rows seeded straight into a stopped server's database, and a read-only
// snapshot of everything the checks compare with the suite's own model of the money.
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';
import { type Answer, send } from '../bench/load';

export interface Reply {
  status: number;
  body: { success?: boolean; data?: Record<string, unknown>; token?: string; error?: { code?: string } };
  text: string;
  replayed: boolean;
}

function toReply(a: Answer): Reply {
  const text = a.body.toString('utf8');
  let body: Reply['body'] = {};
  try {
    body = JSON.parse(text) as Reply['body'];
  } catch {
    // not JSON: kept as text for the failure message
  }
  return { status: a.status, body, text, replayed: a.headers['idempotent-replayed'] === 'true' };
}

/** One JSON request (any method) with an optional bearer token and Idempotency-Key. */
export async function call(
  url: string,
  method: string,
  path: string,
  o: { token?: string; body?: unknown; key?: string; agent?: http.Agent } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  if (o.key) headers['Idempotency-Key'] = o.key;
  let body: string | undefined;
  if (o.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(o.body);
  }
  return toReply(await send(url, { method, path, headers, body }, o.agent));
}

/** A small real PNG whose pixels depend on `seed`, so every proof is a different file. */
export function pngProof(seed: number): Buffer {
  const png = new PNG({ width: 6, height: 4 });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = (seed * 37 + i) % 256;
    png.data[i + 1] = (seed * 11) % 256;
    png.data[i + 2] = i % 256;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** POST /api/submissions with a real multipart body: the proof image, the task and a description. */
export async function uploadProof(
  url: string,
  token: string,
  taskId: string,
  png: Buffer,
  agent?: http.Agent,
): Promise<Reply> {
  const boundary = `----crash${randomBytes(8).toString('hex')}`;
  const part = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="proofImage"; filename="proof.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    png,
    Buffer.from(
      `\r\n${part('task', taskId)}${part('description', 'done, screenshot attached')}--${boundary}--\r\n`,
    ),
  ]);
  const answer = await send(
    url,
    {
      method: 'POST',
      path: '/api/submissions',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    },
    agent,
  );
  return toReply(answer);
}

export const dbFileOf = (dataDir: string) => join(dataDir, 'taskreward.db');

export interface SeededSubmission {
  id: string;
  userId: string;
  taskId: string;
  reward: number;
}

/**
 * Pending submissions written straight into the database of a stopped server, as the start
 * and upload routes leave them (the record moves to completed when its proof is sent): per task one user_task per user (counted in `reserved`) and
 * its pending submission (without a proof file). Touches no balance, so the money rules hold.
 */
export function seedPendingSubmissions(
  dataDir: string,
  userIds: string[],
  tasks: number,
  rewardOf: () => number,
): SeededSubmission[] {
  const db = new Database(dbFileOf(dataDir));
  const out: SeededSubmission[] = [];
  const id = () => randomBytes(12).toString('hex');
  try {
    db.transaction(() => {
      const now = new Date().toISOString();
      const task = db.prepare(
        `INSERT INTO tasks (_id, title, description, category, reward, deadline, difficulty, status,
           max_completions, required_proof, task_link, estimated_time, created_by, created_at, updated_at,
           deleted_at, reserved)
         VALUES (?, 'Anketi doldur', 'Seeded by the crash suite', 'survey', ?, NULL, 'easy', 'active', ?,
           'screenshot', NULL, 5, NULL, ?, ?, NULL, ?)`,
      );
      const userTask = db.prepare(
        `INSERT INTO user_tasks (_id, user_id, task_id, status, automatic_comment, started_at, completed_at)
         VALUES (?, ?, ?, 'completed', NULL, ?, ?)`,
      );
      const submission = db.prepare(
        `INSERT INTO submissions (_id, user_task_id, user_id, task_id, status, description, feedback,
           rejection_reason, reward, proof_file, created_at, updated_at, reviewed_by, reviewed_at)
         VALUES (?, ?, ?, ?, 'pending', 'seeded', NULL, NULL, ?, NULL, ?, ?, NULL, NULL)`,
      );
      for (let t = 0; t < tasks; t++) {
        const taskId = id();
        const reward = rewardOf();
        task.run(taskId, reward, userIds.length + 5, now, now, userIds.length);
        for (const userId of userIds) {
          const userTaskId = id();
          const submissionId = id();
          userTask.run(userTaskId, userId, taskId, now, now);
          submission.run(submissionId, userTaskId, userId, taskId, reward, now, now);
          out.push({ id: submissionId, userId, taskId, reward });
        }
      }
    })();
  } finally {
    db.close();
  }
  return out;
}

/** Tasks every user has started (in progress, a slot reserved), for proofs sent while the server runs. */
export function seedStartedTasks(
  dataDir: string,
  userIds: string[],
  tasks: number,
  rewardOf: () => number,
): { userId: string; taskId: string; reward: number }[] {
  const db = new Database(dbFileOf(dataDir));
  const out: { userId: string; taskId: string; reward: number }[] = [];
  const id = () => randomBytes(12).toString('hex');
  try {
    db.transaction(() => {
      const now = new Date().toISOString();
      for (let t = 0; t < tasks; t++) {
        const taskId = id();
        const reward = rewardOf();
        db.prepare(
          `INSERT INTO tasks (_id, title, description, category, reward, deadline, difficulty, status,
             max_completions, required_proof, task_link, estimated_time, created_by, created_at, updated_at,
             deleted_at, reserved)
           VALUES (?, 'Videoyu izle', 'Seeded by the crash suite', 'video', ?, NULL, 'easy', 'active', ?,
             'screenshot', NULL, 5, NULL, ?, ?, NULL, ?)`,
        ).run(taskId, reward, userIds.length + 5, now, now, userIds.length);
        for (const userId of userIds) {
          db.prepare(
            `INSERT INTO user_tasks (_id, user_id, task_id, status, automatic_comment, started_at, completed_at)
             VALUES (?, ?, ?, 'in_progress', NULL, ?, NULL)`,
          ).run(id(), userId, taskId, now);
          out.push({ userId, taskId, reward });
        }
      }
    })();
  } finally {
    db.close();
  }
  return out;
}

export interface Snapshot {
  users: Map<string, { balance: number; total_earned: number }>;
  submissions: Map<
    string,
    {
      status: string;
      user_id: string;
      task_id: string;
      reward: number;
      proof_file: string | null;
      user_task_status: string;
    }
  >;
  /** "user task" -> the record's status */
  userTasks: Map<string, string>;
  withdrawals: Map<string, { status: string; user_id: string; amount: number }>;
  ledger: { id: number; user_id: string; amount: number; kind: string; ref: string | null }[];
  idempotency: Map<string, { status: number; body: string }>;
  tasks: Map<
    string,
    { total_completed: number; reserved: number; user_tasks: number; approved: number; rejected: number }
  >;
}

export const idemKey = (userId: string, key: string) => `${userId} ${key}`;

/** Everything the checks need, read in one read-only transaction. */
export function snapshot(dataDir: string): Snapshot {
  const db = new Database(dbFileOf(dataDir), { readonly: true, fileMustExist: true });
  try {
    return db.transaction(() => {
      const users = new Map(
        (
          db.prepare('SELECT _id, balance, total_earned FROM users').all() as {
            _id: string;
            balance: number;
            total_earned: number;
          }[]
        ).map((u) => [u._id, { balance: u.balance, total_earned: u.total_earned }]),
      );
      const submissions = new Map(
        (
          db
            .prepare(
              `SELECT s._id, s.status, s.user_id, s.task_id, s.reward, s.proof_file, ut.status AS user_task_status
               FROM submissions s JOIN user_tasks ut ON ut._id = s.user_task_id`,
            )
            .all() as {
            _id: string;
            status: string;
            user_id: string;
            task_id: string;
            reward: number;
            proof_file: string | null;
            user_task_status: string;
          }[]
        ).map(({ _id, ...rest }) => [_id, rest]),
      );
      const withdrawals = new Map(
        (
          db.prepare('SELECT _id, status, user_id, amount FROM withdrawals').all() as {
            _id: string;
            status: string;
            user_id: string;
            amount: number;
          }[]
        ).map(({ _id, ...rest }) => [_id, rest]),
      );
      const ledger = db
        .prepare('SELECT id, user_id, amount, kind, ref FROM ledger ORDER BY id')
        .all() as Snapshot['ledger'];
      const idempotency = new Map(
        (
          db.prepare('SELECT user_id, key, status, body FROM idempotency').all() as {
            user_id: string;
            key: string;
            status: number;
            body: string;
          }[]
        ).map((r) => [idemKey(r.user_id, r.key), { status: r.status, body: r.body }]),
      );
      const tasks = new Map(
        (
          db
            .prepare(
              `SELECT t._id, t.total_completed, t.reserved,
                 (SELECT count(*) FROM user_tasks ut WHERE ut.task_id = t._id) AS user_tasks,
                 (SELECT count(*) FROM submissions s WHERE s.task_id = t._id AND s.status = 'approved') AS approved,
                 (SELECT count(*) FROM submissions s WHERE s.task_id = t._id AND s.status = 'rejected') AS rejected
               FROM tasks t`,
            )
            .all() as {
            _id: string;
            total_completed: number;
            reserved: number;
            user_tasks: number;
            approved: number;
            rejected: number;
          }[]
        ).map(({ _id, ...rest }) => [_id, rest]),
      );
      const userTasks = new Map(
        (
          db.prepare('SELECT user_id, task_id, status FROM user_tasks').all() as {
            user_id: string;
            task_id: string;
            status: string;
          }[]
        ).map((r) => [`${r.user_id} ${r.task_id}`, r.status]),
      );
      return { users, submissions, withdrawals, ledger, idempotency, tasks, userTasks };
    })();
  } finally {
    db.close();
  }
}
