// Preloaded into a bench server (NODE_OPTIONS=--require) by bench/growth.ts: appends every
// statement better-sqlite3 runs, with its parameters, to SQL_TRACE_FILE as JSON lines, so the
// growth table can show the plans of the queries a request really ran. Bench only: the measured
// servers never load it (a write per statement would be most of their time).
const { appendFileSync } = require('node:fs');

const file = process.env.SQL_TRACE_FILE;
if (file) {
  const Database = require(require.resolve('better-sqlite3', { paths: [process.cwd()] }));
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  const plain = (v) => (typeof v === 'bigint' ? Number(v) : Buffer.isBuffer(v) ? null : v);
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = proto[method];
    proto[method] = function traced(...args) {
      try {
        appendFileSync(file, `${JSON.stringify({ sql: this.source, args: args.map(plain) })}\n`);
      } catch {}
      return original.apply(this, args);
    };
  }
}
