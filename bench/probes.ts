// Where the time goes while a scenario runs (the PostgreSQL bench): the CPU of the load
// client (this process), of the app node processes, of the PostgreSQL server (its postmaster and
// every child: backends, WAL writer, checkpointer, autovacuum) and of everything else on the
// machine (other users' work), read from /proc; and what PostgreSQL's busy sessions were waiting
// on, sampled from pg_stat_activity and pg_locks. Linux only: elsewhere the figures are zeros.
import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';

let clockTicks = 0;
export function ticksPerSecond(): number {
  if (!clockTicks) {
    try {
      clockTicks = Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime, stime, cutime, cstime and the parent of a process, in clock ticks; null when it is gone. */
export function procStat(pid: number): { ppid: number; own: number; children: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name may hold spaces and parentheses: the fields start after the last ')'
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): ppid is field 4, utime..cstime fields 14..17
    return {
      ppid: Number(f[1]),
      own: Number(f[11]) + Number(f[12]),
      children: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return null;
  }
}

/**
 * The CPU a process has used so far, every thread of it (utime + stime of /proc/PID/stat), in
 * ms; 0 when it is gone or off Linux. The resolution is a clock tick (10 ms): read it over spans.
 */
export function processCpuMs(pid: number): number {
  const s = procStat(pid);
  return s ? (s.own * 1000) / ticksPerSecond() : 0;
}

/**
 * CPU so far of each thread of a process, summed by thread name (the main thread is the
 * process's own name; libuv's pool "libuv-worker", V8's "V8 DefaultWorke", libvips' its own), ms.
 */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(f[11]) + Number(f[12])) * 1000) / ticksPerSecond();
      const key = tid === String(pid) ? 'main' : name;
      out.set(key, (out.get(key) ?? 0) + ms);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** What each kind of thread used between two threadCpuMs readings, per `count` items, as text. */
export function threadSplit(before: Map<string, number>, after: Map<string, number>, count: number): string {
  return [...after.entries()]
    .map(([name, ms]) => [name, (ms - (before.get(name) ?? 0)) / Math.max(1, count)] as const)
    .filter(([, ms]) => ms >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');
}

/** Busy and total ticks of the whole machine (/proc/stat's cpu line). */
function machineTicks(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
    const busy = user + nice + system + irq + softirq + (steal || 0);
    return { busy, total: busy + idle + iowait };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** CPU of a process tree: the root (with its reaped children) and its live children. */
export function treeTicks(root: number): number {
  const self = procStat(root);
  if (!self) return 0;
  let sum = self.own + self.children;
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {}
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const s = procStat(Number(e));
    if (s && s.ppid === root) sum += s.own;
  }
  return sum;
}

interface CpuSnapshot {
  at: number;
  machine: { busy: number; total: number };
  client: number;
  nodes: number;
  postgres: number;
}

/** CPU used in a span, in cores (CPU-seconds per wall second); they add up to the machine's cores. */
export interface CpuSplit {
  client: number;
  nodes: number;
  postgres: number;
  /** Everything else that ran on the machine (other users' work included). */
  other: number;
  idle: number;
}

export interface CpuProbe {
  start(): () => CpuSplit;
}

/**
 * A probe of the CPU split. `nodes` names the app node processes (read at each start, so a probe
 * made before the nodes start works); `postmaster`, PostgreSQL's server process when it runs here.
 */
export function cpuProbe(nodes: () => number[], postmaster: number | null): CpuProbe {
  const tick = ticksPerSecond();
  const snap = (): CpuSnapshot => {
    const usage = process.cpuUsage();
    return {
      at: performance.now(),
      machine: machineTicks(),
      client: ((usage.user + usage.system) / 1e6) * tick,
      nodes: nodes().reduce((n, pid) => n + (procStat(pid)?.own ?? 0), 0),
      postgres: postmaster ? treeTicks(postmaster) : 0,
    };
  };
  return {
    start() {
      const a = snap();
      return () => {
        const b = snap();
        const seconds = (b.at - a.at) / 1000;
        const cores = (ticks: number) => ticks / tick / seconds;
        const totalCores = (b.machine.total - a.machine.total) / tick / seconds || os.cpus().length;
        const client = cores(b.client - a.client);
        const nodes = cores(b.nodes - a.nodes);
        const postgres = cores(b.postgres - a.postgres);
        const busy = cores(b.machine.busy - a.machine.busy);
        return {
          client,
          nodes,
          postgres,
          other: Math.max(0, busy - client - nodes - postgres),
          idle: Math.max(0, totalCores - busy),
        };
      };
    },
  };
}

/** The postmaster of the server `url` names, when that server runs on this machine (else null). */
export async function findPostmaster(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const backend = procStat(rows[0].pid);
    return backend ? backend.ppid : null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

/** What PostgreSQL's sessions of one database were doing, averaged over the samples. */
export interface WaitProfile {
  samples: number;
  /** Average number of sessions in each state, e.g. "on CPU", "Lock:transactionid", "in transaction, waiting for the node". */
  sessions: Record<string, number>;
  /** Average number of ungranted locks, by the relation they wait on (or their lock type). */
  lockWaits: Record<string, number>;
  /**
   * Average number of sessions waiting for a lock, by the statement they run (its start). A wait in
   * a trigger shows the statement that fired it.
   */
  lockWaiters: Record<string, number>;
}

/**
 * Samples pg_stat_activity and pg_locks every `everyMs` from its own connection; `stop` returns
 * the averages. Active sessions with no wait event are running or waiting for a core ("on CPU").
 */
export async function waitSampler(url: string, everyMs = 50) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-probe' });
  await client.connect();
  const database = new URL(url).pathname.slice(1);
  type Tally = { sessions: Map<string, number>; locks: Map<string, number>; waiters: Map<string, number> };
  let running: (Tally & { samples: number }) | null = null;
  let busy = false;
  const timer = setInterval(async () => {
    if (!running || busy) return;
    busy = true;
    const into = running;
    try {
      const activity = await client.query<{ what: string; n: number }>(
        `SELECT CASE WHEN state = 'idle in transaction' THEN 'in transaction, waiting for the node'
                     WHEN wait_event IS NULL THEN 'on CPU'
                     ELSE wait_event_type || ':' || wait_event END AS what, count(*)::int AS n
         FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')
         GROUP BY 1`,
        [database],
      );
      const locks = await client.query<{ what: string; n: number }>(
        `SELECT coalesce(relation::regclass::text, locktype) AS what, count(*)::int AS n
         FROM pg_locks WHERE NOT granted GROUP BY 1`,
      );
      const waiters = await client.query<{ what: string; n: number }>(
        `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS what, count(*)::int AS n
         FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' GROUP BY 1`,
        [database],
      );
      into.samples++;
      for (const r of activity.rows) into.sessions.set(r.what, (into.sessions.get(r.what) ?? 0) + r.n);
      for (const r of locks.rows) into.locks.set(r.what, (into.locks.get(r.what) ?? 0) + r.n);
      for (const r of waiters.rows) into.waiters.set(r.what, (into.waiters.get(r.what) ?? 0) + r.n);
    } catch {
      // a sample lost is a sample lost; the averages are over the samples taken
    } finally {
      busy = false;
    }
  }, everyMs);
  const average = (m: Map<string, number>, n: number) =>
    Object.fromEntries([...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / Math.max(1, n)]));
  return {
    start() {
      running = { sessions: new Map(), locks: new Map(), waiters: new Map(), samples: 0 };
    },
    stop(): WaitProfile {
      const r = running ?? { sessions: new Map(), locks: new Map(), waiters: new Map(), samples: 0 };
      running = null;
      return {
        samples: r.samples,
        sessions: average(r.sessions, r.samples),
        lockWaits: average(r.locks, r.samples),
        lockWaiters: average(r.waiters, r.samples),
      };
    },
    async close() {
      clearInterval(timer);
      while (busy) await new Promise((r) => setTimeout(r, 5));
      await client.end();
    },
  };
}
export type WaitSampler = Awaited<ReturnType<typeof waitSampler>>;
