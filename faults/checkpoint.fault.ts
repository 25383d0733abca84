// The WAL checkpoint worker in the real server process: it runs (the metrics say so and count the
// pages it copied) while clients write, a stop by a signal to the whole process group still folds
// the WAL into the file, and a kill in the middle of the writes and checkpoints loses no
// acknowledged write.
import { existsSync, statSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, type RequestSpec, send } from '../bench/load';
import { ADMIN, runDoctor, type ServerProcess, startServerProcess } from './server';

const TOKEN = 'checkpoint-fault-metrics-token-0123456789';

let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.kill();
  server = null;
});

const json = (method: string, path: string, token: string | null, body?: unknown): RequestSpec => ({
  method,
  path,
  headers: {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});
const parse = (a: Answer) => JSON.parse(a.body.toString()) as Record<string, unknown>;

/** Renames one user `count` times, two clients at once; each answer a 200. */
async function writeMany(s: ServerProcess, count: number): Promise<{ id: string; names: string[] }> {
  const agent = new http.Agent({ keepAlive: true });
  const login = await send(s.url, json('POST', '/api/auth/login', null, ADMIN), agent);
  const admin = parse(login).token as string;
  const reg = await send(
    s.url,
    json('POST', '/api/auth/register', null, {
      name: 'Wal User',
      email: 'wal@faults.test',
      password: 'user-pass-1',
    }),
    agent,
  );
  expect(reg.status).toBe(201);
  const id = (parse(reg) as { data: { _id: string } }).data._id;
  const names: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const name = `Wal User ${next++}`;
      const res = await send(
        s.url,
        json('PUT', `/api/admin/users/${id}`, admin, { name, email: 'wal@faults.test' }),
        agent,
      );
      expect(res.status).toBe(200);
      names.push(name);
    }
  };
  await Promise.all([lane(), lane()]);
  agent.destroy();
  return { id, names };
}

async function scrape(s: ServerProcess): Promise<Map<string, number>> {
  const res = await fetch(`${s.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const values = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [name, value] = line.split(' ');
    values.set(name, Number(value));
  }
  return values;
}

describe('the WAL checkpoint worker in the server process', () => {
  it('copies the WAL while clients write; a signal to the process group still folds it in', async () => {
    server = await startServerProcess({ env: { METRICS_TOKEN: TOKEN }, group: true });
    await writeMany(server, 400);
    await new Promise((r) => setTimeout(r, 500));
    const metrics = await scrape(server);
    expect(metrics.get('taskreward_sqlite_wal_checkpoint_worker')).toBe(1);
    expect(metrics.get('taskreward_sqlite_wal_checkpointed_pages_total')).toBeGreaterThan(100);
    expect(server.log()).not.toContain('checkpoint worker stopped');
    const { dataDir, child } = server;
    process.kill(-(child.pid ?? 0), 'SIGTERM');
    await new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
    server = null;
    expect(child.exitCode).toBe(0);
    const wal = join(dataDir, 'taskreward.db-wal');
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    expect(runDoctor(dataDir).status).toBe(0);
  });

  it('loses no acknowledged write to a kill in the middle of writes and checkpoints', async () => {
    server = await startServerProcess({ group: true });
    const { id, names } = await writeMany(server, 300);
    const { dataDir } = server;
    await server.kill();
    server = null;
    const db = new Database(join(dataDir, 'taskreward.db'));
    try {
      const row = db.prepare('SELECT name FROM users WHERE _id = ?').get(id) as { name: string };
      // the last acknowledged rename is the one the file holds (the two lanes' last answers)
      expect(names.slice(-2)).toContain(row.name);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const audit = db.prepare('SELECT count(*) AS n FROM audit_log WHERE target_id = ?').get(id) as {
        n: number;
      };
      expect(audit.n).toBeGreaterThanOrEqual(names.length);
    } finally {
      db.close();
    }
  });
});
