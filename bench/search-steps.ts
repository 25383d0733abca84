// The search that misses every cache, taken apart in one process: the server's own functions
// over a seeded folder (no HTTP, no client sharing the cores), each step run over the bench's
// 900 cold filters (bench/app.ts coldSearchPaths) and timed by the process's CPU (user +
// system), so a loaded machine moves the figures less than it moves a rate. No server may
// hold the folder meanwhile.
//   npx esbuild bench/search-steps.ts --bundle --platform=node --format=cjs \
//     --external:better-sqlite3 --external:argon2 --external:sharp --outfile=dist/bench/search-steps.cjs \
//     && node dist/bench/search-steps.cjs --data DIR [--rounds 3]
import { loadavg } from 'node:os';
import { createApp } from '../src-server/app';
import { openApp } from '../src-server/bootstrap';
import { readConfig } from '../src-server/config';
import { taskListQuerySchema } from '../src-server/contract/tasks';
import { foldSearch } from '../src-server/db/search';
import {
  liveTasksByIds,
  type TaskFilter,
  taskIdsQuery,
  tasksByIds,
} from '../src-server/features/tasks/tasks.repository';
import { listTasksJson } from '../src-server/features/tasks/tasks.service';
import { coldSearchPaths } from './app';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function main() {
  const dataDir = option('--data');
  if (!dataDir) throw new Error('--data DIR is required');
  const rounds = Number(option('--rounds') ?? 3);
  const config = readConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const opened = await openApp(config, { web: new Map() });
  const { deps } = opened;
  const sqlite = opened.database.sqlite;
  const app = createApp(deps);
  const paths = coldSearchPaths();
  const queries = paths.map((p) =>
    taskListQuerySchema.parse(Object.fromEntries(new URL(p, 'http://x').searchParams)),
  );
  const filters = queries.map(
    (q): TaskFilter => ({
      publicOnly: true,
      now: new Date().toISOString(),
      category: q.category,
      difficulty: q.difficulty,
      rewardRange: q.rewardRange,
      q: q.q ? foldSearch(q.q) : undefined,
    }),
  );
  const pages: string[][] = [];
  for (const [i, f] of filters.entries()) {
    const { rows } = await deps.db.executeQuery(taskIdsQuery(deps.db, f, queries[i].sort));
    pages.push(rows.slice(0, 20).map((r) => r._id));
  }
  const matches = pages.map((p) => p.length);
  console.log(
    `${paths.length} filters; page sizes: min ${Math.min(...matches)}, max ${Math.max(...matches)}; load ${loadavg()[0].toFixed(2)}`,
  );

  const steps: [string, (i: number) => unknown][] = [
    ['whole request (app.request, Hono in process)', async (i) => (await app.request(paths[i])).text()],
    ['listTasksJson', (i) => listTasksJson(deps, undefined, queries[i])],
    ['ids statement built (taskIdsQuery)', (i) => taskIdsQuery(deps.db, filters[i], queries[i].sort)],
    [
      'ids statement built and run (Kysely)',
      (i) => deps.db.executeQuery(taskIdsQuery(deps.db, filters[i], queries[i].sort)),
    ],
    [
      'ids statement run bare (better-sqlite3 .all)',
      (i) => {
        const q = taskIdsQuery(deps.db, filters[i], queries[i].sort);
        return sqlite?.prepare(q.sql).all(q.parameters as unknown[]);
      },
    ],
    ['page rows, whole (tasksByIds)', (i) => tasksByIds(deps.db, pages[i], 20)],
    ['page rows, live columns (liveTasksByIds)', (i) => liveTasksByIds(deps.db, pages[i], 20)],
  ];
  // --steps 0,1: only those steps (by their place in the list), for a profile of one
  const only = option('--steps')?.split(',').map(Number);
  const chosen = only ? steps.filter((_, i) => only.includes(i)) : steps;
  for (let round = 1; round <= rounds; round++) {
    const line: string[] = [];
    for (const [name, step] of chosen) {
      // a warm-up pass, then the timed pass over every filter
      for (let i = 0; i < paths.length; i++) await step(i);
      // the list cache keeps 200 searches for 2 s: a pause so the timed pass misses it too
      deps.taskList.clear();
      const before = cpuUs();
      for (let i = 0; i < paths.length; i++) await step(i);
      line.push(`${name}: ${((cpuUs() - before) / paths.length).toFixed(0)} µs`);
    }
    console.log(`round ${round} (load ${loadavg()[0].toFixed(2)}):\n  ${line.join('\n  ')}`);
  }
  await opened.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
