// The cost of the request log and the metrics on the task list, under wrk, in one run:
//   node build/build.mjs && node bench/observability.mjs [--seconds 8] [--rounds 3] [--parts]
// Starts the built server twice over one seeded data folder, "off" (LOG_LEVEL=silent, no
// METRICS_TOKEN: no line written, no histogram kept) and "on" (LOG_LEVEL=info, a JSON line per
// request written to a file the server's stdout is, METRICS_TOKEN set, the histogram kept and
// scraped once per round),
// and runs wrk against GET /api/tasks on each in turn, off/on alternating, several rounds (with
// --parts also "logs" alone and "metrics" alone). Prints the median requests per second of each
// and the overhead in percent: the median over the rounds of on's cost against off in the same
// round, so a machine that slows down between rounds does not count as overhead.
//   node bench/observability.mjs --paired [--turn 2] [--pairs 20] [--parts] [--json FILE]
// keeps an "off" server and an "on" one up side by side and loads them in short alternating
// turns instead (see paired below): the figure to trust on a machine shared with other work.
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 8);
const rounds = arg('rounds', 3);
const ADMIN = { email: 'bench@taskreward.test', password: 'bench-pass-1' };
const TOKEN = 'bench-metrics-token-0123456789';

async function seed(url) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = await login.json();
  for (let i = 0; i < 60; i++) {
    const res = await fetch(`${url}/api/tasks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        title: `Bench task ${i}`,
        description: 'A task for the bench: rate the app and upload a screenshot.',
        reward: 5 + (i % 10),
        maxCompletions: 100,
      }),
    });
    if (res.status !== 201) throw new Error(`seeding: ${res.status} ${await res.text()}`);
  }
}

function wrk(url, duration = seconds) {
  const out = spawnSync('wrk', ['-t1', '-c16', `-d${duration}s`, '--latency', `${url}/api/tasks`], {
    encoding: 'utf8',
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out.stdout)?.[1]);
  if (!Number.isFinite(rps)) throw new Error(`wrk: ${out.stdout}${out.stderr}`);
  return { rps, requests };
}

/**
 * The CPU time a process has used, in seconds (user + system, all its threads: the event loop's
 * and libuv's, which make the log's writes): on a shared machine the server's CPU per request
 * moves far less with the neighbours' load than its requests per second do.
 */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function stopChild(child) {
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const scratch = mkdtempSync(join(tmpdir(), 'taskreward-obs-bench-'));
const data = join(scratch, 'data');
mkdirSync(data);
try {
  // the first server seeds the folder both use
  let server = await startServer(data, 'on');
  await seed(server.url);
  await server.stop();
  // with --parts, the log alone and the metrics alone too: which of the two costs what
  const modes = process.argv.includes('--parts') ? ['off', 'logs', 'metrics', 'on'] : ['off', 'on'];
  if (process.argv.includes('--paired')) {
    // one folder is one server's: the second gets a copy made while neither runs
    cpSync(data, `${data}-b`, { recursive: true });
    await paired(
      data,
      `${data}-b`,
      modes.filter((m) => m !== 'off'),
    );
    process.exit(0);
  }
  const results = Object.fromEntries(modes.map((m) => [m, []]));
  const cpu = Object.fromEntries(modes.map((m) => [m, []]));
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      server = await startServer(data, mode);
      // a fresh process: the first seconds are the compiler's, not the logger's
      wrk(server.url, 2);
      const cpuBefore = cpuSeconds(server.child.pid);
      const { rps, requests } = wrk(server.url);
      const cpuUs = ((cpuSeconds(server.child.pid) - cpuBefore) / requests) * 1e6;
      cpu[mode].push(cpuUs);
      if (mode === 'on' || mode === 'metrics')
        await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      results[mode].push(rps);
      await server.stop();
      console.log(
        `round ${round + 1}, ${mode.padEnd(7)}: ${rps.toFixed(0)} req/s, server CPU ${cpuUs.toFixed(1)} µs/request`,
      );
    }
  }
  // the cost of each mode against "off" of the same round (the machine drifts between rounds),
  // and the median of those
  const costOf = (mode) =>
    median(results[mode].map((rps, i) => ((results.off[i] - rps) / results.off[i]) * 100));
  const off = median(results.off);
  const on = median(results.on);
  const overhead = costOf('on');
  // the same in the server's CPU per request: what the log and the metrics add to each request
  const cpuCostOf = (mode) => median(cpu[mode].map((us, i) => ((us - cpu.off[i]) / cpu.off[i]) * 100));
  for (const mode of modes.filter((m) => m !== 'off'))
    console.log(
      `  ${mode}: median ${median(results[mode]).toFixed(0)} req/s, cost against off in the same round: median ${costOf(mode).toFixed(1)}%; server CPU ${median(cpu[mode]).toFixed(1)} µs/request against ${median(cpu.off).toFixed(1)} off, +${cpuCostOf(mode).toFixed(1)}%`,
    );
  console.log(
    `task list under wrk (c=16, ${seconds} s, ${rounds} rounds): off ${off.toFixed(0)} req/s, on ${on.toFixed(0)} req/s, overhead ${overhead.toFixed(1)}% (median of the rounds' paired ratios)`,
  );
  writeFileSync(
    join(root, 'dist', 'observability-bench.json'),
    JSON.stringify(
      { off, on, overhead, results, cpuMicrosPerRequest: cpu, cpuOverhead: cpuCostOf('on') },
      null,
      2,
    ),
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/**
 * "off" and one other mode, both servers up and warm the whole time, loaded in short turns in
 * the order off, other, other, off, ... (each pair of turns mirrors the one before, so a machine
 * that speeds up or slows down steadily costs both the same). The cost is the median over the
 * pairs of the other's drop against the off turn next to it: on a machine shared with other
 * work, whose load moves within seconds, turns of a second or two pair far more closely than
 * rounds of a fresh server each. Each server's CPU per request (all its threads, the log's writes
 * in libuv's pool included) is paired the same way.
 */
async function paired(dataDir, dataDirB, others) {
  const turn = arg('turn', 2);
  const pairs = arg('pairs', 20);
  const os = await import('node:os');
  const figures = [];
  for (const mode of others) {
    const a = await startServer(dataDir, 'off', 'a');
    const b = await startServer(dataDirB, mode, 'b');
    try {
      await wrkAsync(a.url, 3);
      await wrkAsync(b.url, 3);
      const load = async (server) => {
        const before = cpuSeconds(server.child.pid);
        const r = await wrkAsync(server.url, turn);
        return { ...r, us: ((cpuSeconds(server.child.pid) - before) / r.requests) * 1e6 };
      };
      const costs = [];
      const cpuCosts = [];
      const offRps = [];
      const otherRps = [];
      const cpuOff = [];
      const cpuOther = [];
      for (let i = 0; i < pairs; i++) {
        let ra;
        let rb;
        if (i % 2 === 0) {
          ra = await load(a);
          rb = await load(b);
        } else {
          rb = await load(b);
          ra = await load(a);
        }
        cpuOff.push(ra.us);
        cpuOther.push(rb.us);
        offRps.push(ra.rps);
        otherRps.push(rb.rps);
        costs.push(((ra.rps - rb.rps) / ra.rps) * 100);
        cpuCosts.push(((rb.us - ra.us) / ra.us) * 100);
      }
      if (mode !== 'logs') await fetch(`${b.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      figures.push({
        mode,
        pairs,
        turnSeconds: turn,
        load: os.loadavg()[0],
        offRps: median(offRps),
        rps: median(otherRps),
        cost: median(costs),
        costQuartiles: quartiles(costs),
        cpuCost: median(cpuCosts),
        cpuCostQuartiles: quartiles(cpuCosts),
        offCpuMicros: median(cpuOff),
        cpuMicros: median(cpuOther),
      });
      console.log(
        `${mode} against off, ${pairs} pairs of ${turn}-s turns (wrk c=16, load ${os.loadavg()[0].toFixed(1)}): off ${median(offRps).toFixed(0)} req/s, ${mode} ${median(otherRps).toFixed(0)} req/s; median paired cost ${median(costs).toFixed(1)}% of throughput (quartiles ${quartiles(costs)}), +${median(cpuCosts).toFixed(1)}% server CPU per request (quartiles ${quartiles(cpuCosts)})`,
      );
    } finally {
      await a.stop();
      await b.stop();
    }
  }
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt > 0) writeFileSync(process.argv[jsonAt + 1], JSON.stringify(figures, null, 2));
}

function quartiles(xs) {
  const s = [...xs].sort((p, q) => p - q);
  const at = (f) => s[Math.min(s.length - 1, Math.floor(f * s.length))].toFixed(1);
  return `${at(0.25)} to ${at(0.75)}`;
}

function wrkAsync(url, duration = seconds) {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', ['-t1', '-c16', `-d${duration}s`, `${url}/api/tasks`]);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', () => {
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
      if (!Number.isFinite(rps)) reject(new Error(`wrk: ${out}`));
      else resolve({ rps, requests });
    });
  });
}

/**
 * Starts the built server on a free port with its stdout going straight to a file (the "on"
 * server's log) or /dev/null: no process of the bench reads the lines, so what is measured is
 * what the server spends writing them, as under systemd or Docker with a log file or journal.
 */
async function startServer(dataDir, mode, name = mode) {
  const logs = mode === 'on' || mode === 'logs';
  const metrics = mode === 'on' || mode === 'metrics';
  const { createServer } = await import('node:net');
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const out = openSync(logs ? join(dataDir, '..', `server-${name}.log`) : '/dev/null', 'a');
  const child = spawn(
    process.execPath,
    [join(root, 'dist/server/main.cjs'), 'serve', '--port', String(port), '--data', dataDir],
    {
      env: {
        ...process.env,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_FORMAT: 'json',
        LOG_LEVEL: logs ? 'info' : 'silent',
        METRICS_TOKEN: metrics ? TOKEN : '',
      },
      stdio: ['ignore', out, 'inherit'],
    },
  );
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, stop: () => stopChild(child) };
}
