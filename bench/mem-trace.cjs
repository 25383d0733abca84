// Preloaded into a bench server by hand (NODE_OPTIONS="--require ./bench/mem-trace.cjs"; the bench
// and bench/profile.ts pass their environment to the servers they start) to see where its memory
// goes: every 500 ms a line to MEM_TRACE_FILE with the RSS split into anonymous and file-backed
// pages (/proc/self/smaps_rollup), process.memoryUsage() and V8's spaces; at each new peak (2 MB
// above the last, at most every 3 s) the largest mappings of /proc/self/smaps by name ([heap] is
// glibc's main heap: SQLite's page cache and most of what C code keeps; [anon] V8's heap pages,
// malloc's blocks of 128 KiB and more, thread stacks). SIGUSR2 writes a V8 heap snapshot beside
// the file (after a full collection: what is live). Only a process started with `serve` traces.
const fs = require('node:fs');
const v8 = require('node:v8');

const file = process.env.MEM_TRACE_FILE;
if (file && process.argv.includes('serve')) {
  const mb = (n) => (n / 1048576).toFixed(1);
  const rollup = () => {
    const text = fs.readFileSync('/proc/self/smaps_rollup', 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) / 1024;
    return { rss: kb('Rss'), anon: kb('Anonymous') };
  };
  const largestMappings = () => {
    const byName = new Map();
    let name = '';
    for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (head) {
        name = (head[1] || '[anon]').replace(/^.*\//, '');
        continue;
      }
      const rss = /^Rss:\s+(\d+)/.exec(line);
      if (rss) byName.set(name, (byName.get(name) ?? 0) + Number(rss[1]) / 1024);
    }
    return [...byName]
      .filter(([, v]) => v >= 1)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, v]) => `${k}=${v.toFixed(1)}`)
      .join(' ');
  };
  let peak = 0;
  let lastDetail = 0;
  setInterval(() => {
    const m = process.memoryUsage();
    const r = rollup();
    const spaces = v8
      .getHeapSpaceStatistics()
      .filter((s) => s.space_size > 0)
      .map((s) => `${s.space_name.replace('_space', '')}=${mb(s.space_size)}`)
      .join(' ');
    let line =
      `${new Date().toISOString().slice(11, 19)} rss ${r.rss.toFixed(1)} anon ${r.anon.toFixed(1)} file ${(r.rss - r.anon).toFixed(1)}` +
      ` heapTotal ${mb(m.heapTotal)} heapUsed ${mb(m.heapUsed)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)} | ${spaces}`;
    if (r.rss > peak + 2 && Date.now() - lastDetail > 3000) {
      peak = r.rss;
      lastDetail = Date.now();
      line += `\n  peak, largest mappings (MB): ${largestMappings()}`;
    }
    fs.appendFileSync(file, `${line}\n`);
  }, 500).unref();
  process.on('SIGUSR2', () => {
    const snapshot = v8.writeHeapSnapshot(`${file}.${Date.now()}.heapsnapshot`);
    fs.appendFileSync(file, `heap snapshot ${snapshot}\n`);
  });
}
