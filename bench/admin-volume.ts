// The admin work's figures at volume on a seeded folder, each against a fresh server so its peak RSS is its own:
// the dashboard stats (sequential calls: an admin's latency), a full CSV export of every
// submission (1M at full scale: time, bytes and the server's peak RSS), and a bulk approval
// of 500 pending submissions.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ADMIN, startServerProcess } from '../faults/server';
import { quantile } from './load';

export interface AdminVolume {
  stats: { calls: number; p50: number; p99: number; todayP50: number; todayP99: number };
  exports: {
    label: string;
    rows: number;
    bytes: number;
    seconds: number;
    peakRss: number;
    idleRss: number;
  }[];
  bulk: { items: number; approved: number; ms: number };
}

function get(
  url: string,
  path: string,
  token: string,
): Promise<{ status: number; body: Buffer; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - t0 }),
        );
      })
      .on('error', reject);
  });
}

/** Reads the whole export, counting bytes and lines without keeping them. */
function drain(
  url: string,
  path: string,
  token: string,
): Promise<{ status: number; bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0;
        let lines = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines }));
      })
      .on('error', reject);
  });
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  return ((await res.json()) as { token: string }).token;
}

const vm = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

export async function measureAdminVolume(options: {
  dataDir: string;
  quick?: boolean;
  log?: (m: string) => void;
}): Promise<AdminVolume> {
  const log = options.log ?? (() => {});
  const calls = options.quick ? 100 : 500;

  // ---- stats ----
  let server = await startServerProcess({ dataDir: options.dataDir });
  let stats: AdminVolume['stats'];
  try {
    const token = await login(server.url);
    const times = async (path: string) => {
      for (let i = 0; i < 20; i++) await get(server.url, path, token);
      const ms: number[] = [];
      for (let i = 0; i < calls; i++) {
        const r = await get(server.url, path, token);
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`);
        ms.push(r.ms);
      }
      return ms.sort((a, b) => a - b);
    };
    const all = await times('/api/admin/stats');
    const today = await times('/api/admin/stats/today');
    stats = {
      calls,
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      todayP50: quantile(today, 0.5),
      todayP99: quantile(today, 0.99),
    };
    log(
      `stats: p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(2)} ms; today p99 ${stats.todayP99.toFixed(2)} ms`,
    );
  } finally {
    await server.stop();
  }

  // ---- exports: every submission, each format on a fresh server ----
  const exports: AdminVolume['exports'] = [];
  for (const [label, query] of [
    ['submissions, Excel-Turkish', ''],
    ['submissions, RFC 4180', '?format=rfc4180'],
  ] as const) {
    server = await startServerProcess({ dataDir: options.dataDir });
    try {
      const token = await login(server.url);
      const idleRss = vm(server.pid, 'VmRSS');
      const t0 = performance.now();
      const got = await drain(server.url, `/api/admin/submissions/export.csv${query}`, token);
      const seconds = (performance.now() - t0) / 1000;
      if (got.status !== 200) throw new Error(`export: ${got.status}`);
      const row = {
        label,
        rows: got.lines - 1,
        bytes: got.bytes,
        seconds,
        peakRss: vm(server.pid, 'VmHWM'),
        idleRss,
      };
      exports.push(row);
      log(
        `export ${label}: ${row.rows} rows, ${(row.bytes / 1048576).toFixed(0)} MB in ${seconds.toFixed(1)} s, peak RSS ${(row.peakRss / 1048576).toFixed(0)} MB (idle ${(idleRss / 1048576).toFixed(0)} MB)`,
      );
    } finally {
      await server.stop();
    }
  }

  // ---- bulk approval of 500 pending submissions (the folder keeps them approved) ----
  server = await startServerProcess({ dataDir: options.dataDir });
  let bulk: AdminVolume['bulk'];
  try {
    const token = await login(server.url);
    const db = new Database(join(options.dataDir, 'taskreward.db'), { readonly: true });
    const ids = (
      db
        .prepare(
          "SELECT s._id FROM submissions s JOIN users u ON u._id = s.user_id WHERE s.status = 'pending' AND u.role = 'user' ORDER BY s.created_at LIMIT 500",
        )
        .all() as { _id: string }[]
    ).map((r) => r._id);
    db.close();
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/admin/submissions/review`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ids, status: 'approved', feedback: 'task completed successfully' }),
    });
    const body = (await res.json()) as { data: { counts: { approved?: number } } };
    const ms = performance.now() - t0;
    bulk = { items: ids.length, approved: body.data.counts.approved ?? 0, ms };
    log(`bulk approval: ${bulk.approved} of ${bulk.items} approved in ${ms.toFixed(0)} ms`);
  } finally {
    await server.stop();
  }
  return { stats, exports, bulk };
}
