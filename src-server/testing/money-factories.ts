import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import { newId, nowIso } from '../db/ids';
import type { SubmissionsTable, TasksTable, UserTasksTable, WithdrawalsTable } from '../db/schema';
import { recordAudit } from '../features/audit/audit.repository';
import { adjustBalance, debit } from '../features/money/ledger';
import { insertTask } from '../features/tasks/tasks.repository';
import { insertWithdrawal } from '../features/withdrawals/withdrawals.repository';

/**
 * Rows for the money tests, written straight to the tables (the task and submission
 * features are built elsewhere). Amounts are kuruş.
 */
export async function makeTask(db: Db, overrides: Partial<Insertable<TasksTable>> = {}): Promise<string> {
  const id = overrides._id ?? newId();
  const now = nowIso();
  // through the repository, so the folded search columns are written as the app writes them
  await insertTask(db, {
    _id: id,
    title: 'Uygulamayı değerlendir',
    description: 'Rate the app and upload a screenshot',
    category: 'review',
    reward: 1000,
    deadline: null,
    difficulty: 'easy',
    status: 'active',
    max_completions: 100,
    required_proof: 'screenshot',
    task_link: null,
    estimated_time: 5,
    created_by: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    ...overrides,
  });
  return id;
}

/** A started task: the user's record, counted in the task's reserved slots. */
export async function makeUserTask(
  db: Db,
  userId: string,
  taskId: string,
  overrides: Partial<Insertable<UserTasksTable>> = {},
): Promise<string> {
  const id = overrides._id ?? newId();
  await db
    .insertInto('user_tasks')
    .values({
      _id: id,
      user_id: userId,
      task_id: taskId,
      status: 'completed',
      automatic_comment: null,
      started_at: nowIso(),
      completed_at: null,
      ...overrides,
    })
    .execute();
  await db
    .updateTable('tasks')
    .set((eb) => ({ reserved: eb('reserved', '+', 1) }))
    .where('_id', '=', taskId)
    .execute();
  return id;
}

export interface PendingSubmission {
  submissionId: string;
  userTaskId: string;
  taskId: string;
}

/** A pending submission of `userId` for a task (a new one unless `taskId` is given). */
export async function makePendingSubmission(
  db: Db,
  userId: string,
  options: { taskId?: string; reward?: number; createdAt?: string } = {},
): Promise<PendingSubmission> {
  const reward = options.reward ?? 1000;
  const taskId = options.taskId ?? (await makeTask(db, { reward }));
  const userTaskId = await makeUserTask(db, userId, taskId);
  const submissionId = newId();
  const now = options.createdAt ?? nowIso();
  const values: Insertable<SubmissionsTable> = {
    _id: submissionId,
    user_task_id: userTaskId,
    user_id: userId,
    task_id: taskId,
    status: 'pending',
    description: 'done',
    feedback: null,
    rejection_reason: null,
    reward,
    proof_file: null,
    created_at: now,
    updated_at: now,
    reviewed_by: null,
    reviewed_at: null,
  };
  await db.insertInto('submissions').values(values).execute();
  return { submissionId, userTaskId, taskId };
}

/**
 * Gives a user a balance the ledger explains: an adjustment by `adminId`, with its audit row, as
 * the admin's user edit writes them.
 */
export async function fund(
  db: Db,
  userId: string,
  balanceKurus: number,
  adminId = 'test-admin',
): Promise<void> {
  const at = nowIso();
  await db.transaction().execute(async (tx) => {
    const adjusted = await adjustBalance(tx, userId, balanceKurus, adminId, at);
    if (adjusted.delta !== 0)
      await recordAudit(tx, {
        actorId: adminId,
        action: 'user.balance',
        targetType: 'user',
        targetId: userId,
        changes: { balance: [adjusted.previous, adjusted.next], delta: adjusted.delta },
        at,
      });
  });
}

/** A pending withdrawal whose amount is held from the balance, as POST /api/withdraws leaves it. */
export async function makeWithdrawal(
  db: Db,
  userId: string,
  overrides: Partial<Insertable<WithdrawalsTable>> & { amount?: number } = {},
): Promise<string> {
  const id = overrides._id ?? newId();
  const amount = overrides.amount ?? 5000;
  const now = overrides.created_at ?? nowIso();
  await db.transaction().execute(async (tx) => {
    await insertWithdrawal(tx, {
      _id: id,
      user_id: userId,
      amount,
      payment_method: 'papara',
      full_name: 'Ayşe Yılmaz',
      account_number: '1234567890',
      status: 'pending',
      rejection_reason: null,
      description: null,
      created_at: now,
      updated_at: now,
      reviewed_by: null,
      reviewed_at: null,
      ...overrides,
    });
    const held = await debit(tx, {
      userId,
      amount,
      kind: 'withdrawal_hold',
      ref: id,
      actorId: userId,
      at: now,
    });
    if (!held) throw new Error('makeWithdrawal: the balance does not cover the amount');
  });
  return id;
}

/** A valid Turkish IBAN around 22 digits of bank code, reserve digit and account number. */
export function makeIban(bban = '0006100519786457841326'): string {
  const digits = `${bban}292700`; // T=29, R=27, check digits 00
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `TR${String(98 - rest).padStart(2, '0')}${bban}`;
}

/** The app on a real HTTP server on a free port of 127.0.0.1, for race tests. */
export async function listen(app: { fetch: (req: Request) => Response | Promise<Response> }): Promise<{
  url: string;
  close(): Promise<void>;
}> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}

/** Starts `n` calls in the same tick, once all are ready, and waits for every reply. */
export async function burst<T>(n: number, call: (i: number) => Promise<T>): Promise<T[]> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const calls = Array.from({ length: n }, (_, i) => gate.then(() => call(i)));
  release();
  return Promise.all(calls);
}
