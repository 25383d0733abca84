// Compares two BENCHMARKS.md files figure by figure (their generated sections), as a markdown
// table of: figure, before, after, change. Used to write "Node 24 against Node 20" in
// BENCHMARKS.md; run it again after a new `npm run bench` to refresh that table.
//   node bench/compare.mjs OLD.md NEW.md [--before-label X] [--after-label Y]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'before-label': { type: 'string' }, 'after-label': { type: 'string' } },
});
if (positionals.length !== 2) {
  console.error('usage: node bench/compare.mjs OLD.md NEW.md [--before-label X] [--after-label Y]');
  process.exit(2);
}

/** The generated section's figures: name -> { value, unit, better: 'higher' | 'lower' }. */
function figures(file) {
  const text = readFileSync(file, 'utf8');
  const section = text.slice(text.indexOf('<!-- bench:begin'), text.indexOf('<!-- bench:end'));
  const out = new Map();
  const add = (name, value, unit, better) => {
    if (Number.isFinite(value)) out.set(name, { value, unit, better });
  };
  const num = (s) => Number(String(s).replace(/[^\d.]/g, ''));
  const rows = (heading) => {
    const start = section.indexOf(heading);
    if (start < 0) return [];
    const lines = section.slice(start).split('\n');
    if (!heading.startsWith('|')) lines.shift(); // a heading line, not the table's own header
    const table = [];
    let seen = false;
    for (const line of lines) {
      if (line.startsWith('|')) {
        seen = true;
        table.push(
          line
            .split('|')
            .slice(1, -1)
            .map((c) => c.trim()),
        );
      } else if (seen) break;
    }
    return table.slice(2);
  };
  for (const [part, rate, p50, p99] of rows('### Limits of the parts')) {
    add(`limit: ${part}, per s`, num(rate), '/s', 'higher');
    if (p50) add(`limit: ${part}, p50`, num(p50), 'ms', 'lower');
    if (p99) add(`limit: ${part}, p99`, num(p99), 'ms', 'lower');
  }
  for (const [request, , rate, p50, p99, , rss] of rows('### The app over HTTP')) {
    add(`${request}, req/s`, num(rate), '/s', 'higher');
    add(`${request}, p50`, num(p50), 'ms', 'lower');
    add(`${request}, p99`, num(p99), 'ms', 'lower');
    const [now] = String(rss).split('/');
    add(`${request}, RSS after`, num(now), 'MB', 'lower');
  }
  const memory =
    /right after start on the seeded folder: (\d+) MB; peak RSS \(VmHWM\) over all the scenarios above: (\d+) MB/.exec(
      section,
    );
  if (memory) {
    add('server RSS after start', Number(memory[1]), 'MB', 'lower');
    add('server peak RSS', Number(memory[2]), 'MB', 'lower');
  }
  const startup = /bundle (\d+) ms \(first start on an empty folder (\d+) ms\); single binary (\d+) ms/.exec(
    section,
  );
  if (startup) {
    add('start-up, bundle', Number(startup[1]), 'ms', 'lower');
    add('start-up, bundle, empty folder', Number(startup[2]), 'ms', 'lower');
    add('start-up, single binary', Number(startup[3]), 'ms', 'lower');
  }
  const seeding = /Seeding took ([\d.]+) s/.exec(section);
  if (seeding) add('seeding', Number(seeding[1]), 's', 'lower');
  for (const [page, js, css] of rows('| page | JavaScript')) {
    add(`${page} page JavaScript, gzip`, num(js), 'KB', 'lower');
    add(`${page} page CSS, gzip`, num(css), 'KB', 'lower');
  }
  return out;
}

const before = figures(positionals[0]);
const after = figures(positionals[1]);
const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** "387 → 412 (+6%)", the change marked when it is for the worse. */
function cell(name) {
  const b = before.get(name);
  const a = after.get(name);
  if (!b || !a) return '';
  const pct = b.value === 0 ? 0 : ((a.value - b.value) / b.value) * 100;
  const worse = b.better === 'higher' ? pct < 0 : pct > 0;
  const change = Math.abs(pct) < 0.5 ? '=' : `${pct > 0 ? '+' : '−'}${Math.abs(pct).toFixed(0)}%`;
  return `${fmt(b.value)} → ${fmt(a.value)} (${worse && change !== '=' ? `**${change}**` : change})`;
}

// one row per thing measured, its figures side by side
const groups = new Map();
for (const name of before.keys()) {
  if (!after.has(name)) continue;
  const m = /^(.*), (per s|req\/s|p50|p99|RSS after)$/.exec(name);
  const [item, kind] = m ? [m[1], m[2] === 'per s' ? 'req/s' : m[2]] : [name, 'value'];
  if (!groups.has(item)) groups.set(item, {});
  groups.get(item)[kind] = cell(name);
}
const label = `${values['before-label'] ?? 'before'} → ${values['after-label'] ?? 'after'}`;
const lines = [
  `Each cell: ${label} (change; **bold** when worse).`,
  '',
  '| figure | per second | p50 ms | p99 ms | RSS after, MB / value |',
  '|---|---|---|---|---|',
];
for (const [item, k] of groups) {
  lines.push(
    `| ${item} | ${k['req/s'] ?? ''} | ${k.p50 ?? ''} | ${k.p99 ?? ''} | ${k['RSS after'] ?? k.value ?? ''} |`,
  );
}
console.log(lines.join('\n'));
