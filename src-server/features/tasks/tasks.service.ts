import type { z } from 'zod';
import type { Page } from '../../contract';
import { envelopeText } from '../../contract/envelope';
import {
  TASK_FIELD_MESSAGES,
  type TaskAdminUpdate,
  type TaskDto,
  type TaskListQuery,
  type taskCreateSchema,
} from '../../contract/tasks';
import { changeStamp, StampedReads } from '../../db/change-stamp';
import type { Db } from '../../db/database';
import { newId, nowIso } from '../../db/ids';
import { foldSearch } from '../../db/search';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { notifyAll } from '../notifications/notifications.service';
import type { UserRow } from '../users/users.repository';
import { taskAuditView, taskChanges } from './task-audit';
import { countComments, listComments, replaceUnusedComments } from './task-comments.repository';
import { endRecordsOfTask } from './task-expiry';
import { TASK_LIST_HELD_MS, TASK_LIST_MAX_AGE_MS } from './task-list-cache';
import { bumpTaskListVersion, readTaskListVersion } from './task-list-version';
import { taskFixedFields, taskLiveFields, toTaskDto, toUserTaskDto } from './tasks.mapper';
import {
  countsOfRow,
  doneTaskIds,
  findTask,
  findTaskWithCounts,
  insertTask,
  listTaskIds,
  liveTasksByIds,
  type TaskFilter,
  type TaskListRow,
  type TaskLiveRow,
  type TaskRow,
  taskMatches,
  tasksByIds,
  updateTask,
} from './tasks.repository';
import { listUserTaskRecords } from './user-tasks.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'taskList'>;

/**
 * Every write of a task goes through here: the write and the bump of the task list's version
 * commit together (other nodes then read their lists again), and once committed this node
 * forgets the lists and rows it holds, so the writer sees its change on the next request. A
 * write that throws rolls back with its bump and leaves the lists as they were.
 */
async function writeTask<T>(deps: Deps, write: (trx: Db) => Promise<T>): Promise<T> {
  const done = await deps.db.transaction().execute(async (trx) => {
    const out = await write(trx);
    await bumpTaskListVersion(trx);
    return out;
  });
  deps.taskList.clear();
  return done;
}

// admin powers need an active admin: a suspended one is treated like any other user
const isAdmin = (user?: UserRow) => user?.role === 'admin' && user.status === 'active';
const isOwner = (row: TaskRow, user?: UserRow) => user !== undefined && row.created_by === user._id;

/** Active, within its deadline: what users and visitors may see and start. */
export function isOpen(row: TaskRow, now: string): boolean {
  return row.status === 'active' && (row.deadline === null || row.deadline > now);
}

/** What the task DTO is made from for this viewer: comment texts only for admins and the owner. */
async function readForViewer(deps: Deps, row: TaskRow, viewer: UserRow | undefined, withUserTask: boolean) {
  const task = await readTaskParts(deps, row, isAdmin(viewer) || isOwner(row, viewer));
  const record =
    withUserTask && viewer
      ? ((await listUserTaskRecords(deps.db, viewer._id, row._id))[0] ?? null)
      : undefined;
  return { ...task, record };
}
type ViewerReads = Awaited<ReturnType<typeof readForViewer>>;

/** A task's own reads: its comment counts, and the texts when the viewer may see them. */
async function readTaskParts(deps: Deps, row: TaskRow, withTexts: boolean) {
  const counts = (await countComments(deps.db, [row._id])).get(row._id) ?? { total: 0, used: 0 };
  const comments = withTexts ? await listComments(deps.db, [row._id]) : undefined;
  return { row, counts, comments };
}

function presentReads(deps: Deps, viewer: UserRow | undefined, reads: ViewerReads) {
  const { row, counts, comments, record } = reads;
  const userTask =
    record === undefined ? undefined : record ? toUserTaskDto(record, nowIso(deps.clock)) : null;
  return toTaskDto(row, { viewerId: viewer?._id, counts, comments, userTask });
}

/** The task DTO for this viewer: comment texts only for admins and the owner. */
async function present(deps: Deps, row: TaskRow, viewer: UserRow | undefined, withUserTask: boolean) {
  return presentReads(deps, viewer, await readForViewer(deps, row, viewer, withUserTask));
}

/**
 * A task as it is after its writer's change, for the change's answer. Other requests run while
 * the change's commit reaches the disk, so an admin may have deleted it meanwhile: that answers
 * 404 like a change that came after the delete, not a 500.
 */
async function presentAfterWrite(deps: Deps, id: string, writer: UserRow) {
  const row = await findTask(deps.db, id);
  if (!row) throw fail.notFound('task_not_found');
  return present(deps, row, writer, false);
}

/**
 * Reads remembered under the change stamp (db/change-stamp.ts), so given again only while no
 * write reached the database; one set per opened database (bootstrap.ts openApp). `done`: the
 * tasks each user is done with, which their list hides. A task detail's reads: the task with its
 * comment counts (per task and whether the texts are shown), and the viewer's record of it (per
 * viewer and task: mostly none, so many are kept for little memory). The DTO, with what depends
 * on the time, is made on every request.
 */
export interface TaskReads {
  done: StampedReads<string[]>;
  /**
   * The live columns of a list's page, per page size and ids: the part of the page task writes
   * change, read on every request before; shared by every viewer the page is the same for.
   */
  pageLive: StampedReads<TaskLiveRow[]>;
  detailTasks: StampedReads<Omit<ViewerReads, 'record'> | null>;
  detailRecords: StampedReads<ViewerReads['record']>;
  /**
   * The task list's version (task-list-version.ts), under the request's stamp: while no
   * transaction committed anywhere the version is the same, and the list costs no statement
   * (no round trip on PostgreSQL) of its own.
   */
  listVersion: StampedReads<number>;
}
export const taskReads = (): TaskReads => ({
  listVersion: new StampedReads(1),
  done: new StampedReads(2_000),
  pageLive: new StampedReads(500),
  detailTasks: new StampedReads(1_000),
  detailRecords: new StampedReads(20_000),
});

/**
 * The task list. Admins with `all=1` or a status filter see every live task; everyone else
 * sees active tasks within their deadline, minus the ones they are done with (paid, or a proof pending). The ids of
 * a filter and sort come from the list cache (kept while nothing changed them, task-list-cache.ts); the page's
 * rows are read by id, only their live columns when the rows were read in the last 2 s. A
 * page that finds one of its tasks no longer matching reads the list again, so the count never
 * promises tasks that the pages no longer hold. The reply is JSON as UTF-8 bytes: each row's
 * fixed part (tasks.mapper.ts taskFixedFields) is serialized and encoded once while the row is held.
 */
export async function listTasksJson(
  deps: Deps & Pick<AppDeps, 'taskReads'>,
  viewer: UserRow | undefined,
  query: TaskListQuery,
  stamp?: string | null,
): Promise<Uint8Array<ArrayBuffer>> {
  const adminView = isAdmin(viewer) && (query.all || query.status !== undefined);
  const clock = deps.clock();
  const q = query.q ? foldSearch(query.q) : '';
  const filter: TaskFilter = {
    publicOnly: !adminView,
    now: clock.toISOString(),
    status: adminView ? query.status : undefined,
    category: query.category,
    difficulty: query.difficulty,
    rewardRange: query.rewardRange,
    q: q || undefined,
  };
  const key = JSON.stringify([
    filter.publicOnly,
    filter.status,
    filter.category,
    filter.difficulty,
    filter.rewardRange,
    query.sort,
    q,
  ]);
  // `stamp`: the one the request's sign-in read (http/auth.ts), so the request reads it once; an
  // anonymous request takes one now (SQLite: counters of the writing connection; PostgreSQL: one
  // statement shared with the requests of the same moment), so the page's live columns are
  // remembered for it too
  const readStamp = stamp ?? (await changeStamp(deps.db));
  const hidden =
    !adminView && viewer ? await doneTaskIds(deps.db, deps.taskReads.done, readStamp, viewer._id) : [];
  const cache = deps.taskList;
  const searching = q !== '';
  // a list is kept while the task list's version holds: any change to which tasks it holds,
  // through any node or path, moves it (an unchanged stamp means nothing committed, the version
  // included); this node's own task writes also clear its cache
  const version = await deps.taskReads.listVersion.get('task_list', readStamp, () =>
    readTaskListVersion(deps.db),
  );
  // the completion counts order the most popular, and every approval moves them
  const maxAge = query.sort === 'most_popular' ? TASK_LIST_MAX_AGE_MS : TASK_LIST_HELD_MS;
  const read = async () => {
    const list = await cache.list(key, searching, clock.getTime(), version, maxAge, () =>
      listTaskIds(deps.db, filter, query.sort),
    );
    const page = list.page((query.page - 1) * query.limit, query.limit, hidden);
    let rows: { fixed: TaskListRow; live: TaskLiveRow }[] = [];
    const held = page.ids.length > 0 ? cache.rows.held(page.ids, clock.getTime(), version) : null;
    if (held) {
      // the columns only task writes change come from rows read in the last 2 s; the rest fresh
      // remembered under the request's stamp
      const live = await deps.taskReads.pageLive.get(`${query.limit}:${page.ids.join(',')}`, readStamp, () =>
        liveTasksByIds(deps.db, page.ids, query.limit),
      );
      rows = live.map((row) => ({ fixed: held.get(row._id) as TaskListRow, live: row }));
    } else if (page.ids.length > 0) {
      const generation = cache.rows.generation;
      const whole = await tasksByIds(deps.db, page.ids, query.limit);
      cache.rows.keep(whole, clock.getTime(), version, generation);
      rows = whole.map((row) => ({ fixed: row, live: row }));
    }
    return {
      list,
      page,
      rows,
      stale: rows.length < page.ids.length || rows.some((r) => !taskMatches(r.fixed, filter, r.live)),
    };
  };
  let got = await read();
  if (got.stale) {
    await cache.drop(key, searching, got.list);
    got = await read();
  }
  const { page, rows } = got;
  const byId = new Map(rows.map((r) => [r.live._id, r]));
  const pieces: Uint8Array[] = [LIST_OPEN];
  for (const id of page.ids) {
    const row = byId.get(id);
    if (!row || !taskMatches(row.fixed, filter, row.live)) continue;
    const counts = countsOfRow(row.live);
    const live = JSON.stringify(
      taskLiveFields(row.live, row.fixed.created_by, { viewerId: viewer?._id, counts }),
    );
    pieces.push(
      pieces.length === 1 ? ITEM_OPEN : NEXT_ITEM_OPEN,
      fixedBytes(row.fixed),
      Buffer.from(`,${live.slice(1)}`),
    );
  }
  const rest = JSON.stringify({
    total: page.total,
    page: query.page,
    limit: query.limit,
    pages: Math.ceil(page.total / query.limit),
  } satisfies Omit<Page<TaskDto>, 'items'>);
  pieces.push(Buffer.from(`],${rest.slice(1)}`), ENVELOPE_CLOSE);
  // Buffer.concat's memory is an ArrayBuffer, never a SharedArrayBuffer
  return Buffer.concat(pieces) as Uint8Array<ArrayBuffer>;
}

// The list's answer is put together as UTF-8 bytes: the tasks' texts hold Turkish letters, which
// make a JavaScript string two bytes a character, and encoding a whole page's text again for
// every answer was a sixth of the list's main thread. Each row's fixed part is encoded once.
const [ENVELOPE_OPEN, ENVELOPE_CLOSE] = envelopeText('\u0000')
  .split('\u0000')
  .map((part) => Buffer.from(part));
const LIST_OPEN = Buffer.concat([ENVELOPE_OPEN, Buffer.from('{"items":[')]);
const ITEM_OPEN = Buffer.from('{');
const NEXT_ITEM_OPEN = Buffer.from(',{');

/** A row's fixed fields as UTF-8 JSON without its braces, made once per row object. */
const fixedEncoded = new WeakMap<TaskListRow, Buffer>();
function fixedBytes(row: TaskListRow): Buffer {
  let bytes = fixedEncoded.get(row);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(taskFixedFields(row)).slice(1, -1));
    fixedEncoded.set(row, bytes);
  }
  return bytes;
}

/**
 * One task. Visitors and users see it while it is open, or while they have a record of it
 * (so a submitted task stays visible); admins and the owner always. Otherwise a 404.
 */
export async function getTaskFor(
  deps: Deps & Pick<AppDeps, 'taskReads'>,
  viewer: UserRow | undefined,
  id: string,
  requestStamp?: string | null,
): Promise<TaskDto> {
  // the signed-in request's stamp (http/auth.ts) when there is one: one stamp per request
  const stamp = requestStamp === undefined ? await changeStamp(deps.db) : requestStamp;
  const { detailTasks, detailRecords } = deps.taskReads;
  // kept per task, with the comment texts for admins and without for everyone else
  const admin = isAdmin(viewer);
  let task = await detailTasks.get(`${admin ? 'admin' : 'plain'}:${id}`, stamp, async () => {
    const found = await findTaskWithCounts(deps.db, id);
    if (!found) return null;
    const { comments_total: _total, comments_used: _used, ...row } = found;
    return {
      row,
      counts: countsOfRow(found),
      comments: admin ? await listComments(deps.db, [row._id]) : undefined,
    };
  });
  // a creator who is no longer an admin still sees their task's texts (read for them alone)
  if (task && !admin && isOwner(task.row, viewer)) task = await readTaskParts(deps, task.row, true);
  if (!task) throw fail.notFound('task_not_found');
  const { row } = task;
  const record = viewer
    ? await detailRecords.get(
        `${viewer._id}:${id}`,
        stamp,
        async () => (await listUserTaskRecords(deps.db, viewer._id, id))[0] ?? null,
      )
    : undefined;
  const dto = presentReads(deps, viewer, { ...task, record });
  const visible =
    isAdmin(viewer) || isOwner(row, viewer) || isOpen(row, nowIso(deps.clock)) || !!dto.userTask;
  if (!visible) throw fail.notFound('task_not_found');
  return dto;
}

type CreateInput = z.output<typeof taskCreateSchema>;

/** POST /api/tasks: the admin becomes the task's creator. */
export async function createTask(deps: Deps & Pick<AppDeps, 'push'>, admin: UserRow, input: CreateInput) {
  const now = nowIso(deps.clock);
  const id = newId();
  const comments = input.automaticComments ?? { comments: [], removed: 0 };
  await writeTask(deps, async (trx) => {
    await insertTask(trx, {
      _id: id,
      title: input.title,
      description: input.description,
      category: input.category,
      reward: input.reward,
      deadline: input.deadline ?? null,
      difficulty: input.difficulty,
      status: input.status,
      max_completions: input.maxCompletions,
      required_proof: input.requiredProof,
      task_link: input.taskLink ?? null,
      is_featured: input.isFeatured ? 1 : 0,
      steps: JSON.stringify(input.steps ?? []),
      requirements: JSON.stringify(input.requirements ?? []),
      estimated_time: input.estimatedTime ?? null,
      ...(input.timeLimitMinutes !== undefined && { time_limit_minutes: input.timeLimitMinutes }),
      min_seconds: input.minSeconds ?? null,
      created_by: admin._id,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    await replaceUnusedComments(trx, id, comments.comments);
    await recordAudit(trx, {
      actorId: admin._id,
      action: 'task.create',
      targetType: 'task',
      targetId: id,
      changes: {
        title: input.title,
        reward: input.reward,
        status: input.status,
        maxCompletions: input.maxCompletions,
        automaticComments: comments.comments.length,
      },
      at: now,
    });
  });
  // after the commit: every subscribed device hears of a task they can start now
  if (input.status === 'active') notifyAll(deps, 'newTask');
  return { task: await presentAfterWrite(deps, id, admin), removedComments: comments.removed };
}

/**
 * PUT /api/tasks/{id}: an active admin changes the fields they send. Being the task's creator
 * gives no powers of its own: only admins create tasks, and a creator who is demoted, suspended
 * or banned must not keep editing (the reward, the slots, the proof) what they made as an admin.
 * The route's guard refuses them; this is the same rule where the write happens.
 */
export async function updateTaskFor(deps: Deps, user: UserRow, id: string, input: TaskAdminUpdate) {
  if (!isAdmin(user)) throw fail.forbidden(user.role === 'admin' ? 'suspended' : 'task_not_owner');
  const row = await findTask(deps.db, id);
  if (!row) throw fail.notFound('task_not_found');
  const now = nowIso(deps.clock);
  const patch = {
    ...(input.title !== undefined && { title: input.title }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.reward !== undefined && { reward: input.reward }),
    ...(input.taskLink !== undefined && { task_link: input.taskLink }),
    ...(input.maxCompletions !== undefined && { max_completions: input.maxCompletions }),
    ...(input.category !== undefined && { category: input.category }),
    ...(input.difficulty !== undefined && { difficulty: input.difficulty }),
    ...(input.status !== undefined && { status: input.status }),
    ...(input.requiredProof !== undefined && { required_proof: input.requiredProof }),
    ...(input.deadline !== undefined && { deadline: input.deadline }),
    ...(input.steps !== undefined && { steps: JSON.stringify(input.steps) }),
    ...(input.requirements !== undefined && { requirements: JSON.stringify(input.requirements) }),
    ...(input.estimatedTime !== undefined && { estimated_time: input.estimatedTime }),
    ...(input.timeLimitMinutes !== undefined && { time_limit_minutes: input.timeLimitMinutes }),
    ...(input.minSeconds !== undefined && { min_seconds: input.minSeconds }),
    ...(input.isFeatured !== undefined && { is_featured: input.isFeatured ? 1 : 0 }),
    updated_at: now,
  };
  const comments = input.automaticComments;
  await writeTask(deps, async (trx) => {
    // closed (inactive, completed, cancelled): the records in progress end first, so their
    // slots do not count against a lower maxCompletions sent with it
    if (input.status !== undefined && input.status !== 'active') await endRecordsOfTask(trx, id, now);
    if (!(await updateTask(trx, id, patch))) {
      if (!(await findTask(trx, id))) throw fail.notFound('task_not_found');
      throw fail.validation({ maxCompletions: TASK_FIELD_MESSAGES.maxCompletionsBelowTaken });
    }
    if (comments) await replaceUnusedComments(trx, id, comments.comments);
    const { updated_at: _at, ...fields } = patch;
    const changes: Record<string, unknown> = taskChanges(row, fields);
    if (comments) changes.automaticComments = comments.comments.length;
    await recordAudit(trx, {
      actorId: user._id,
      action: 'task.update',
      targetType: 'task',
      targetId: id,
      changes,
      at: now,
    });
  });
  return { task: await presentAfterWrite(deps, id, user), removedComments: comments?.removed ?? 0 };
}

/**
 * DELETE /api/tasks/{id}: a soft delete; records and submissions stay for history. Records in
 * progress end in the same transaction (slots and comments back); pending proofs stay reviewable.
 */
export async function deleteTask(deps: Deps, actorId: string, id: string): Promise<void> {
  const now = nowIso(deps.clock);
  await writeTask(deps, async (trx) => {
    if (!(await updateTask(trx, id, { deleted_at: now, updated_at: now })))
      throw fail.notFound('task_not_found');
    const ended = await endRecordsOfTask(trx, id, now);
    await recordAudit(trx, {
      actorId,
      action: 'task.delete',
      targetType: 'task',
      targetId: id,
      changes: { endedRecords: ended },
      at: now,
    });
  });
}

/** PUT /api/tasks/{id}/feature. */
export async function featureTask(deps: Deps, admin: UserRow, id: string, isFeatured: boolean) {
  const now = nowIso(deps.clock);
  await writeTask(deps, async (trx) => {
    const before = await findTask(trx, id);
    const done = await updateTask(trx, id, { is_featured: isFeatured ? 1 : 0, updated_at: now });
    if (!done || !before) throw fail.notFound('task_not_found');
    await recordAudit(trx, {
      actorId: admin._id,
      action: 'task.feature',
      targetType: 'task',
      targetId: id,
      changes: { isFeatured: [taskAuditView(before).isFeatured, isFeatured] },
      at: now,
    });
  });
  return presentAfterWrite(deps, id, admin);
}
