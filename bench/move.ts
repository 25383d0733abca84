// `npm run bench -- --data DIR --move URL`: moves the seeded folder DIR into a new, empty database
// made on the PostgreSQL server of URL (a role that may create databases), timed as an operator
// runs it (`node dist/server/main.cjs move-to-postgres --data DIR`) under `/usr/bin/time -v`,
// whose peak RSS covers the move's process and the folder's doctor it starts as a child. The
// database is dropped afterwards; the folder is only read.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_ENTRY } from '../faults/server';
import { emptyTestDatabase } from '../src-server/db/test-databases';
import type { SeedResult } from './seed';

export interface MoveStep {
  label: string;
  detail: string;
  seconds: number | null;
}

export interface MoveBench {
  ok: boolean;
  /** Wall-clock seconds of the whole command, from /usr/bin/time (or measured here without it). */
  seconds: number;
  /** Peak RSS in MB of the move and its children (/usr/bin/time), and of the move's process alone. */
  peakMb: number | null;
  movePeakMb: number | null;
  steps: MoveStep[];
  loadAverage: number;
  output: string;
}

const TIME = '/usr/bin/time';
/** The end of a line of the plain progress: `[at 12.3 s, RSS 150 MB (peak 160 MB)]` or without brackets. */
const AT = /at ([\d.]+) s, RSS (\d+) MB \(peak (\d+) MB/;

export async function benchMove(options: {
  adminUrl: string;
  dataDir: string;
  log: (m: string) => void;
}): Promise<MoveBench> {
  const target = await emptyTestDatabase(options.adminUrl, 'taskreward_movebench');
  try {
    const timed = existsSync(TIME);
    const args = [SERVER_ENTRY, 'move-to-postgres', '--data', options.dataDir];
    // time's report goes to a file: written to stderr it shares the pipe Node's child makes
    // non-blocking, and a report written while the pipe is full is lost (EAGAIN)
    const report = join(mkdtempSync(join(os.tmpdir(), 'taskreward-move-')), 'time.txt');
    const [command, argv] = timed
      ? [TIME, ['-v', '-o', report, process.execPath, ...args]]
      : [process.execPath, args];
    const loadAverage = os.loadavg()[0];
    options.log(`moving ${options.dataDir} (load average ${loadAverage.toFixed(1)})`);
    const started = performance.now();
    const child = spawn(command, argv, {
      env: { ...process.env, DATABASE_URL: target.url, S3_BUCKET: '', FILES_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => {
      output += b.toString();
      for (const line of b.toString().split('\n')) if (line.trim()) options.log(`  ${line}`);
    });
    child.stderr.on('data', (b: Buffer) => {
      output += b.toString();
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
      child.on('close', (c, s) => done([c, s])),
    );
    if (code !== 0) output += `\n(the timed command ended with ${signal ?? `exit ${code}`})\n`;
    if (timed && existsSync(report)) output += `\n${readFileSync(report, 'utf8')}`;
    const measured = (performance.now() - started) / 1000;
    const elapsed = /Elapsed \(wall clock\) time[^:]*: (?:(\d+):)?(\d+):([\d.]+)/.exec(output);
    const seconds = elapsed
      ? Number(elapsed[1] ?? 0) * 3600 + Number(elapsed[2]) * 60 + Number(elapsed[3])
      : measured;
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output);
    return {
      ok: code === 0,
      seconds,
      peakMb: rss ? Math.round(Number(rss[1]) / 1024) : null,
      movePeakMb: movePeak(output),
      steps: steps(output),
      loadAverage,
      output,
    };
  } finally {
    await target.drop();
  }
}

function movePeak(output: string): number | null {
  let peak: number | null = null;
  for (const line of output.split('\n')) {
    const m = AT.exec(line);
    if (m) peak = Math.max(peak ?? 0, Number(m[3]));
  }
  return peak;
}

/** The steps of the move's plain progress, each with the seconds since the step before it ended. */
function steps(output: string): MoveStep[] {
  const out: MoveStep[] = [];
  let last = 0;
  for (const line of output.split('\n')) {
    const at = AT.exec(line);
    if (!at) continue;
    const now = Number(at[1]);
    const text = line.replace(/[,[\s]*at [\d.]+ s, RSS.*$/, '');
    const table = /^([\w ]+): (\d+) (rows|indexes|keys|files|tables) in [\d.]+ s \(([\d,-]+) \w+\/s\)$/.exec(
      text,
    );
    if (table) {
      if (table[2] !== '0')
        out.push({
          label: table[1],
          detail: `${Number(table[2]).toLocaleString('en-US')} ${table[3]}, ${table[4]}/s`,
          seconds: now - last,
        });
    } else if (/^doctor on the folder|^compared|^doctor on the target|^migrating/.test(text)) {
      out.push({
        label: text.split(':')[0],
        // (a line with no colon says it all in its label)
        detail: text.includes(':')
          ? text
              .slice(text.indexOf(':') + 1)
              .trim()
              .slice(0, 120)
          : '',
        seconds: now - last,
      });
    } else continue;
    last = now;
  }
  return out;
}

const BEGIN =
  '<!-- bench:move:begin (generated by npm run bench -- --data DIR --move URL; edit outside these markers) -->';
const END = '<!-- bench:move:end -->';
const HEADING = '## Moving a SQLite folder to PostgreSQL (`move-to-postgres`)';

export function moveMarkdown(bench: MoveBench, seeded: SeedResult, command: string, at: Date): string {
  const int = (n: number) => n.toLocaleString('en-US');
  const s = seeded.scale;
  const minutes = `${Math.floor(bench.seconds / 60)} min ${Math.round(bench.seconds % 60)} s`;
  const lines = [
    `Measured ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC with \`${command}\` (load average ${bench.loadAverage.toFixed(1)} at the start; ${os.cpus().length} cores): the folder of ${int(s.users)} users, ${int(s.tasks)} tasks, ${int(s.submissions)} submissions and ${int(s.withdrawals)} withdrawals (${int(seeded.rows.ledger)} ledger rows) moved into an empty database by \`/usr/bin/time -v node dist/server/main.cjs move-to-postgres --data DIR\`.`,
    '',
    '| | measured | target |',
    '|---|---|---|',
    `| whole move | ${bench.ok ? '' : 'FAILED after '}${minutes} (${bench.seconds.toFixed(1)} s) | < 10 min: ${bench.ok && bench.seconds < 600 ? 'met' : 'missed'} |`,
    `| peak RSS (the move and the folder's doctor, its child) | ${bench.peakMb ?? '?'} MB | < 300 MB: ${bench.peakMb !== null && bench.peakMb < 300 ? 'met' : 'missed'} |`,
    `| peak RSS of the move's own process | ${bench.movePeakMb ?? '?'} MB | |`,
    '',
    '| step | time | |',
    '|---|---|---|',
    ...bench.steps.map(
      (st) =>
        `| ${st.label} | ${st.seconds === null ? '' : `${st.seconds.toFixed(1)} s`} | ${st.detail.replaceAll('|', '/')} |`,
    ),
  ];
  return lines.join('\n');
}

/** Rewrites the move's block of BENCHMARKS.md, placed under the move's heading the first time. */
export function writeMoveBlock(generated: string): void {
  const file = resolve('BENCHMARKS.md');
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  if (!text.includes(BEGIN) || !text.includes(END)) {
    const block = `${BEGIN}\n${END}\n`;
    const h = text.indexOf(HEADING);
    text =
      h >= 0
        ? `${text.slice(0, h + HEADING.length)}\n\n${block}${text.slice(h + HEADING.length)}`
        : `${text.trimEnd()}\n\n${HEADING}\n\n${block}`;
  }
  const start = text.indexOf(BEGIN) + BEGIN.length;
  writeFileSync(file, `${text.slice(0, start)}\n${generated}\n${text.slice(text.indexOf(END))}`);
}
