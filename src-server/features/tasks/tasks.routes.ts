import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import {
  taskAdminUpdateSchema,
  taskCreateSchema,
  taskFeatureSchema,
  taskListQuerySchema,
} from '../../contract/tasks';
import { optionalUser, requireActive, requireAdmin, requireTaskEditor, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check, readJson } from '../../http/validate';
import { myTaskRecords, restartTask, startTask } from './task-progress.service';
import {
  createTask,
  deleteTask,
  featureTask,
  getTaskFor,
  listTasksJson,
  updateTaskFor,
} from './tasks.service';

export const tasksRoutes = new Hono<AppEnv>()
  .get('/user', requireUser, async (c) => {
    return c.json(envelope(await myTaskRecords(c.var.deps, c.var.user)));
  })
  .get('/', optionalUser, async (c) => {
    const query = check(taskListQuerySchema, c.req.query());
    // the service writes the reply's JSON itself (each held row's fixed part serialized once)
    return c.body(await listTasksJson(c.var.deps, c.var.user, query, c.var.stamp), 200, {
      'Content-Type': 'application/json',
    });
  })
  .post('/', requireAdmin, async (c) => {
    const input = await readJson(c, taskCreateSchema);
    const { task, removedComments } = await createTask(c.var.deps, c.var.user, input);
    return c.json(envelope(task, { removedComments }), 201);
  })
  .get('/:id', optionalUser, async (c) => {
    return c.json(envelope(await getTaskFor(c.var.deps, c.var.user, c.req.param('id'), c.var.stamp)));
  })
  .put('/:id', requireTaskEditor, async (c) => {
    const input = await readJson(c, taskAdminUpdateSchema);
    const { task, removedComments } = await updateTaskFor(c.var.deps, c.var.user, c.req.param('id'), input);
    return c.json(envelope(task, { removedComments }));
  })
  .delete('/:id', requireAdmin, async (c) => {
    await deleteTask(c.var.deps, c.var.user._id, c.req.param('id'));
    return c.json(envelope({ _id: c.req.param('id'), deleted: true }));
  })
  .put('/:id/feature', requireAdmin, async (c) => {
    const { isFeatured } = await readJson(c, taskFeatureSchema);
    return c.json(envelope(await featureTask(c.var.deps, c.var.user, c.req.param('id'), isFeatured)));
  })
  .post('/:id/start', requireUser, requireActive, async (c) => {
    const record = await startTask(c.var.deps, c.var.user, c.req.param('id'));
    return c.json(envelope(record), 201);
  })
  .post('/:id/restart', requireUser, requireActive, async (c) => {
    return c.json(envelope(await restartTask(c.var.deps, c.var.user, c.req.param('id'))));
  });
