import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { pngFile } from '../../storage/image-fixtures';
import { sharedDatabase } from '../../testing/cluster';
import { makeUser } from '../../testing/factories';
import { type ApiBody, sessionToken, testsOnPostgres } from '../../testing/test-app';
import { multipart } from '../submissions/submission-test-helpers';
import { taskBody } from './task-test-helpers';

// The task list keeps ids per filter for up to 2 s and task rows it read in the last 2 s
// (task-list-cache.ts), and its count may lag writes made outside the task routes. What it
// shows must not: once a write has answered, no signed-in list read that starts afterwards may
// show a task the worker started with its old free slots, a task the worker sent a proof for
// (done for them), a task an approval filled (completed), or a task an admin hid or deleted.
// Readers hammer the lists (several filters, so several cached lists) while one writer makes
// those writes through the real routes; every read is checked against the writes that had
// answered before it began. One app on this run's engine (SQLite, or PostgreSQL when
// TEST_DATABASE_URL is set), then two apps over one database, reading on the node that did not
// write. Two of the readers are anonymous: they see no done tasks of the worker's, and every
// other write must show to them as well (on PostgreSQL their page's live columns are remembered
// under the snapshot the list's version statement brings).

interface Node {
  call(
    method: string,
    path: string,
    token: string,
    body?: unknown,
    raw?: Uint8Array,
    type?: string,
  ): Promise<{ status: number; body: ApiBody }>;
}

/** What a finished write promises every later read. */
type Promised =
  | { kind: 'gone'; taskId: string; what: string; workerOnly?: boolean }
  | { kind: 'slots'; taskId: string; atMost: number };

const dirs: string[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `count` apps over one database: this run's engine, shared the way nodes of a cluster share it. */
async function openNodes(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'taskreward-list-race-'));
  dirs.push(dir);
  const database = await sharedDatabase();
  drops.push(database.drop);
  // one node on SQLite is the plain single server (no cluster mode: its cache is its own)
  const env = count === 1 && !testsOnPostgres ? {} : database.env;
  const config = readConfig({ DATA_DIR: dir, ...env });
  const opened: Awaited<ReturnType<typeof openApp>>[] = [];
  for (let i = 0; i < count; i++) opened.push(await openApp(config, { web: new Map() }));
  const nodes: Node[] = opened.map((o) => {
    const app = createApp(o.deps);
    return {
      async call(method, path, token, body, raw, type) {
        // an empty token: an anonymous request
        const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
        let payload: BodyInit | undefined;
        if (raw) {
          headers['Content-Type'] = type ?? 'application/octet-stream';
          payload = raw as Uint8Array<ArrayBuffer>;
        } else if (body !== undefined) {
          headers['Content-Type'] = 'application/json';
          payload = JSON.stringify(body);
        }
        const res = await app.request(path, { method, headers, body: payload });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
      },
    };
  });
  const close = async () => {
    for (const o of opened) await o.close();
  };
  return { deps: opened[0].deps, nodes, close };
}

async function race(count: number) {
  const { deps, nodes, close } = await openNodes(count);
  try {
    const admin = await makeUser(deps.db, { role: 'admin' });
    const adminToken = await sessionToken(deps, admin);
    const worker = await makeUser(deps.db);
    const workerToken = await sessionToken(deps, worker);
    const writer = nodes[0];
    const reader = nodes[nodes.length - 1];
    const ok = (res: { status: number; body: ApiBody }, status: number) => {
      if (res.status !== status) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const makeTask = async (i: number, overrides: Record<string, unknown> = {}) =>
      ok(
        await writer.call(
          'POST',
          '/api/tasks',
          adminToken,
          taskBody({ title: `Yarış görevi ${i}`, category: i % 2 ? 'survey' : 'video', ...overrides }),
        ),
        201,
      ).data._id as string;
    const sendProof = async (taskId: string, token: string, n: number) => {
      const { body, contentType } = multipart([
        {
          name: 'proofImage',
          filename: 'proof.png',
          type: 'image/png',
          data: pngFile(12 + n, 10, { text: `p${n}` }),
        },
        { name: 'task', value: taskId },
      ]);
      return ok(await writer.call('POST', '/api/submissions', token, undefined, body, contentType), 201).data
        ._id as string;
    };

    const ROUNDS = 4;
    const toStart: string[] = [];
    const toFill: { taskId: string; submissionId: string }[] = [];
    const toHide: string[] = [];
    const toDelete: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      toStart.push(await makeTask(4 * i, { maxCompletions: 5 }));
      // a task with one slot, taken by another worker whose proof waits: approving it fills the task
      const fill = await makeTask(4 * i + 1, { maxCompletions: 1 });
      const other = await makeUser(deps.db);
      const otherToken = await sessionToken(deps, other);
      ok(await writer.call('POST', `/api/tasks/${fill}/start`, otherToken), 201);
      toFill.push({ taskId: fill, submissionId: await sendProof(fill, otherToken, 100 + i) });
      toHide.push(await makeTask(4 * i + 2));
      toDelete.push(await makeTask(4 * i + 3));
    }
    // a task no write touches: every read must keep showing it
    const steady = await makeTask(99);

    const queries = [
      '?limit=100',
      '?limit=100&sort=oldest',
      '?limit=100&category=survey',
      '?limit=100&q=yaris',
    ];
    const done: Promised[] = [];
    let writing = true;
    let finished = 0;
    // after each write, the readers go on until every list was read at least twice since:
    // reads of lists cached before the write, not only of lists read again after it
    const promise = async (p: Promised) => {
      done.push(p);
      const at = finished;
      while (writing && finished < at + 2 * queries.length + 4) await new Promise((r) => setTimeout(r, 2));
    };
    const writes = (async () => {
      try {
        for (let i = 0; i < ROUNDS; i++) {
          // an admin's writes through the task routes first: they empty the caches, and the
          // lists read after them are the cached ones the next writes race against
          ok(await writer.call('PUT', `/api/tasks/${toHide[i]}`, adminToken, { status: 'inactive' }), 200);
          await promise({ kind: 'gone', taskId: toHide[i], what: 'a task an admin made inactive' });
          ok(await writer.call('DELETE', `/api/tasks/${toDelete[i]}`, adminToken), 200);
          await promise({ kind: 'gone', taskId: toDelete[i], what: 'a deleted task' });
          ok(await writer.call('POST', `/api/tasks/${toStart[i]}/start`, workerToken), 201);
          await promise({ kind: 'slots', taskId: toStart[i], atMost: 4 });
          await sendProof(toStart[i], workerToken, i);
          await promise({
            kind: 'gone',
            taskId: toStart[i],
            what: 'a task with the worker’s proof pending',
            workerOnly: true,
          });
          const { taskId, submissionId } = toFill[i];
          ok(
            await writer.call('PUT', `/api/submissions/${submissionId}/review`, adminToken, {
              status: 'approved',
              feedback: 'Güzel iş',
            }),
            200,
          );
          await promise({ kind: 'gone', taskId, what: 'a task its last approval completed' });
        }
      } finally {
        writing = false;
      }
    })();

    const violations: string[] = [];
    const readLoop = async (lane: number, anonymous = false) => {
      for (let k = lane; writing; k++) {
        // a real client's request arrives as I/O; in-process, a read answered from the caches
        // resolves in microtasks alone, and four such loops would starve the writer's timers
        await new Promise((r) => setImmediate(r));
        const query = queries[k % queries.length];
        const promised = done.slice();
        const res = await reader.call('GET', `/api/tasks${query}`, anonymous ? '' : workerToken);
        finished++;
        if (res.status !== 200) {
          violations.push(`${query}: ${res.status}`);
          continue;
        }
        const items = res.body.data.items as { _id: string; remainingSlots: number; category: string }[];
        const byId = new Map(items.map((item) => [item._id, item]));
        for (const p of promised) {
          const item = byId.get(p.taskId);
          if (!item || (p.kind === 'gone' && p.workerOnly && anonymous)) continue;
          const who = anonymous ? ' (anonymous)' : '';
          if (p.kind === 'gone') violations.push(`${query}${who}: ${p.what} (${p.taskId}) still listed`);
          else if (item.remainingSlots > p.atMost)
            violations.push(
              `${query}${who}: a started task (${p.taskId}) shows ${item.remainingSlots} free slots`,
            );
        }
        if (!byId.has(steady)) violations.push(`${query}: the untouched task is missing`);
      }
    };
    await Promise.all([
      writes,
      readLoop(0),
      readLoop(1),
      readLoop(2),
      readLoop(3),
      readLoop(4, true),
      readLoop(5, true),
    ]);
    expect(violations).toEqual([]);
    // the readers ran all along: many reads overlapped the writes, each list from the caches
    expect(finished).toBeGreaterThan(ROUNDS * 5 * 2 * queries.length);

    // and afterwards, every list agrees with the writes, on every node
    for (const node of nodes) {
      const listed = (await node.call('GET', '/api/tasks?limit=100', workerToken)).body.data.items.map(
        (item: { _id: string }) => item._id,
      );
      for (const id of [...toStart, ...toFill.map((f) => f.taskId), ...toHide, ...toDelete])
        expect(listed).not.toContain(id);
      expect(listed).toContain(steady);
    }
  } finally {
    await close();
  }
}

describe('the signed-in task list under writes racing cached reads', () => {
  it('never shows a started, done, completed, hidden or deleted task after its write (one node)', async () => {
    await race(1);
  }, 60_000);

  it('never does either when the writes go through another node of the same database', async () => {
    await race(2);
  }, 60_000);
});
