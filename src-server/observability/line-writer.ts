import { writeSync, write as writeToFd } from 'node:fs';

/** Lines are handed to the system in writes of about this much. */
const WRITE_AT = 16 * 1024;
/** Lines waiting past this are dropped (a reader that stopped reading), not the process. */
const MAX_WAITING = 16 * 1024 * 1024;

/**
 * The log's way to stdout: lines gathered in memory and written to the file descriptor in one
 * asynchronous write of about 16 KB (or every quarter of a second on a quiet server), one write
 * at a time. pino's own destination (sonic-boom) does the same job, but measured on the busiest
 * request it cost a line several microseconds: it sums the byte length of its whole pending text
 * on every line and hands the system a string to encode; here a line costs an array push, and
 * each write one join and one encode. Asynchronous for the reason sonic-boom's async mode is: a
 * synchronous write to a pipe whose reader lags (journald, a container runtime under load) would
 * stall the event loop until the reader catches up.
 */
export class LineWriter {
  private lines: string[] = [];
  private waiting = 0;
  private writing = false;
  /** Lines dropped because the reader fell too far behind. */
  dropped = 0;

  constructor(
    private readonly fd: number,
    flushEveryMs = 250,
  ) {
    setInterval(() => this.flush(), flushEveryMs).unref();
    process.once('exit', () => this.flushSync());
  }

  /** pino's destination interface: one serialized line, with its newline. */
  write(line: string): boolean {
    if (this.waiting > MAX_WAITING) {
      this.dropped++;
      return false;
    }
    this.lines.push(line);
    this.waiting += line.length;
    if (this.waiting >= WRITE_AT && !this.writing) this.flush();
    return true;
  }

  /** Starts a write of what is waiting, unless one is under way (it starts the next itself). */
  flush(): void {
    if (this.writing || this.lines.length === 0) return;
    const bytes = Buffer.from(this.lines.join(''));
    this.lines = [];
    this.waiting = 0;
    this.writing = true;
    this.send(bytes, 0);
  }

  private send(bytes: Buffer, from: number): void {
    writeToFd(this.fd, bytes, from, bytes.length - from, null, (err, written) => {
      if (err && (err as NodeJS.ErrnoException).code === 'EAGAIN') {
        // a non-blocking pipe that is full: try again shortly, the lines keep their order
        setTimeout(() => this.send(bytes, from), 10).unref();
        return;
      }
      if (!err && from + written < bytes.length) {
        this.send(bytes, from + written);
        return;
      }
      // a failed write (stdout closed) loses its lines; the server goes on
      this.writing = false;
      if (this.waiting >= WRITE_AT) this.flush();
    });
  }

  /** At exit: what is still waiting, written at once (a write under way may land after it). */
  flushSync(): void {
    if (this.lines.length === 0) return;
    const bytes = Buffer.from(this.lines.join(''));
    this.lines = [];
    this.waiting = 0;
    let from = 0;
    // a full non-blocking pipe answers EAGAIN: wait a millisecond for the reader, a second at most
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let tries = 0; from < bytes.length && tries < 1_000; ) {
      try {
        from += writeSync(this.fd, bytes, from);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        tries++;
        Atomics.wait(pause, 0, 0, 1);
      }
    }
  }
}
