// The servers of the "limits of the parts" benchmark (bench/limits.ts), each run in its own
// process so the load client never shares their event loop, like the real app server:
//   node bench/limit-servers.mjs bare          node:http answering a fixed JSON
//   node bench/limit-servers.mjs hono          Hono (@hono/node-server) answering the same
//   node bench/limit-servers.mjs hono-sqlite DIR
//       Hono answering 20 rows read by one prepared better-sqlite3 statement from DIR/limits.db
//       (WAL, synchronous=FULL, a `tasks` table of 10,000 rows, created when missing)
// Prints `listening <port>` once it answers on 127.0.0.1 (PORT from the environment, 0 = free).
// Plain JavaScript run directly by node, so it works next to the bundled dist/bench/run.cjs;
// hono and better-sqlite3 resolve from the repo's node_modules.
import { createServer } from 'node:http';
import { join } from 'node:path';

const kind = process.argv[2];
const port = Number(process.env.PORT ?? 0);
export const TASK_ROWS = 10_000;

const CATEGORIES = ['app_review', 'social_media', 'survey', 'video', 'signup', 'game', 'giveaway'];
const DIFFICULTIES = ['easy', 'medium', 'hard'];

/** Task row i, deterministic, shaped like the app's `tasks` table. */
function taskRow(i) {
  const created = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    _id: `task${String(i).padStart(8, '0')}`,
    title: `Görev ${i}: uygulamayı indir ve değerlendir`,
    description: `Açıklama ${i}. Uygulamayı indirin, beş yıldız verin ve kısa bir yorum yazın.`,
    category: CATEGORIES[i % CATEGORIES.length],
    reward: 100 + ((i * 37) % 4900),
    deadline: null,
    difficulty: DIFFICULTIES[i % 3],
    status: i % 10 === 9 ? 'inactive' : 'active',
    max_completions: 100,
    required_proof: 'Ekran görüntüsü',
    task_link: `https://example.com/t/${i}`,
    is_featured: i % 50 === 0 ? 1 : 0,
    steps: '["İndir","Değerlendir","Ekran görüntüsü al"]',
    requirements: '["Android veya iOS"]',
    estimated_time: 5 + (i % 30),
    rating: 4.5,
    total_completed: i % 100,
    reserved: 0,
    created_by: null,
    created_at: created,
    updated_at: created,
    deleted_at: null,
  };
}

const COLUMNS = Object.keys(taskRow(0));

/** The fixed answer of the first two servers: 20 task rows, the size of the third's answer. */
function fixedJson() {
  const rows = [];
  for (let i = 0; i < 20; i++) rows.push(taskRow(TASK_ROWS - 1 - i));
  return JSON.stringify({ tasks: rows });
}

async function openTasks(dir) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(dir, 'limits.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tasks'").get();
  if (!exists) {
    // the columns and types of src-server/db/migrations (initial), without the users reference
    db.exec(`CREATE TABLE tasks (
      _id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT NOT NULL, category TEXT NOT NULL,
      reward INTEGER NOT NULL CHECK (reward > 0), deadline TEXT,
      difficulty TEXT NOT NULL CHECK (difficulty IN ('easy','medium','hard')),
      status TEXT NOT NULL CHECK (status IN ('active','inactive','completed','cancelled')),
      max_completions INTEGER NOT NULL CHECK (max_completions >= 1), required_proof TEXT NOT NULL,
      task_link TEXT, is_featured INTEGER NOT NULL DEFAULT 0 CHECK (is_featured IN (0,1)),
      steps TEXT NOT NULL DEFAULT '[]', requirements TEXT NOT NULL DEFAULT '[]', estimated_time INTEGER,
      rating REAL NOT NULL DEFAULT 4.5, total_completed INTEGER NOT NULL DEFAULT 0,
      reserved INTEGER NOT NULL DEFAULT 0, created_by TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT
    ) STRICT`);
    // the app's newest-first list index (featured first), as in the task-list-indexes migration
    db.exec(
      'CREATE INDEX tasks_sort_newest ON tasks(status, is_featured DESC, created_at DESC) WHERE deleted_at IS NULL',
    );
    const insert = db.prepare(
      `INSERT INTO tasks (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
    );
    db.transaction(() => {
      for (let i = 0; i < TASK_ROWS; i++) insert.run(taskRow(i));
    })();
    db.exec('ANALYZE');
  }
  const list = db.prepare(
    `SELECT ${COLUMNS.join(', ')} FROM tasks WHERE status = 'active' AND deleted_at IS NULL
     ORDER BY is_featured DESC, created_at DESC LIMIT 20`,
  );
  const plan = db
    .prepare(`EXPLAIN QUERY PLAN ${list.source}`)
    .all()
    .map((r) => r.detail)
    .join('; ');
  if (!plan.includes('tasks_sort_newest') || plan.includes('TEMP B-TREE')) {
    throw new Error(`the list statement does not walk the index: ${plan}`);
  }
  return list;
}

function ready(server) {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : port}`);
}

if (kind === 'bare') {
  const body = fixedJson();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(port, '127.0.0.1', () => ready(server));
} else if (kind === 'hono' || kind === 'hono-sqlite') {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  if (kind === 'hono') {
    const body = fixedJson();
    app.get('/tasks', (c) => c.body(body, 200, { 'content-type': 'application/json' }));
  } else {
    const dir = process.argv[3];
    if (!dir) throw new Error('hono-sqlite needs a folder for its database');
    const list = await openTasks(dir);
    app.get('/tasks', (c) => c.json({ tasks: list.all() }));
  }
  const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => ready(server));
} else {
  console.error('usage: node bench/limit-servers.mjs bare|hono|hono-sqlite [DIR]');
  process.exit(2);
}

process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
