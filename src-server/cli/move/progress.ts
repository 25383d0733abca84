import cliProgress from 'cli-progress';

/** How the move shows one step (a table, the files): a bar on a terminal, lines otherwise. */
export interface Step {
  add(n: number): void;
  end(): void;
}

export interface Progress {
  step(label: string, total: number, unit: string): Step;
  /** A line of its own (what was compared, a refusal), kept apart from the bars. */
  line(text: string): void;
  stop(): void;
}

const LABEL_WIDTH = 16;

function rate(done: number, ms: number): string {
  return ms > 0 ? Math.round((done * 1000) / ms).toLocaleString('en-US') : '-';
}

/** Bars per step with their rate, on a terminal (cli-progress writes them to stderr). */
function bars(): Progress {
  const multi = new cliProgress.MultiBar(
    {
      format: '{label} [{bar}] {value}/{total} {unit} | {rate} {unit}/s | {duration_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  return {
    step(label, total, unit) {
      const started = performance.now();
      let done = 0;
      const bar = multi.create(Math.max(total, 1), 0, { label: label.padEnd(LABEL_WIDTH), unit, rate: '-' });
      return {
        add(n) {
          done += n;
          bar.update(done, { rate: rate(done, performance.now() - started) });
        },
        end() {
          bar.setTotal(Math.max(done, 1));
          bar.update(done, { rate: rate(done, performance.now() - started) });
        },
      };
    },
    line(text) {
      multi.log(`${text}\n`);
    },
    stop() {
      multi.stop();
    },
  };
}

/** The process's resident memory now and at its peak: a log shows where a move's memory goes. */
export function memory(): string {
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  const { rss, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return (
    `at ${process.uptime().toFixed(1)} s, RSS ${mb(rss)} MB (peak ${mb(process.resourceUsage().maxRSS * 1024)} MB; ` +
    `heap ${mb(heapTotal)} MB, outside it ${mb(external + arrayBuffers)} MB)`
  );
}

/** Plain lines: one as a step ends, and one every 10 s of a long step. */
function lines(write: (text: string) => void): Progress {
  return {
    step(label, total, unit) {
      const started = performance.now();
      let done = 0;
      let said = started;
      return {
        add(n) {
          done += n;
          const now = performance.now();
          if (now - said >= 10_000) {
            said = now;
            write(`${label}: ${done}/${total} ${unit} (${rate(done, now - started)} ${unit}/s)`);
          }
        },
        end() {
          const ms = performance.now() - started;
          write(
            `${label}: ${done} ${unit} in ${(ms / 1000).toFixed(1)} s (${rate(done, ms)} ${unit}/s), ${memory()}`,
          );
        },
      };
    },
    line: (text) => write(`${text} [${memory()}]`),
    stop() {},
  };
}

/** Bars when stderr is a terminal, lines on stdout otherwise (a log, a pipe, a test). */
export function progressFor(tty = Boolean(process.stderr.isTTY)): Progress {
  return tty ? bars() : lines((text) => console.log(text));
}
