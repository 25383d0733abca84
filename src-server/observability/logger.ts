import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { LineWriter } from './line-writer';

export type { Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

export interface LogOptions {
  /** LOG_LEVEL: trace, debug, info (the default), warn, error, fatal or silent. */
  level: string;
  /** LOG_FORMAT=pretty, or a terminal on stdout: human-readable lines; JSON lines otherwise. */
  format: LogFormat;
  /** The node's name, on every line (NODE_NAME, else the host name). */
  node: string;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/**
 * Keys whose values never reach a line, wherever they sit in what is logged (one or two levels
 * deep): a defence behind the rule that request bodies and headers are not logged at all.
 */
const SECRET_KEYS = [
  'password',
  'currentPassword',
  'newPassword',
  'confirmPassword',
  'token',
  'accessToken',
  'refreshToken',
  'resetToken',
  'verificationToken',
  'secret',
  'totp',
  'code',
  'otp',
  'authorization',
  'cookie',
  'signature',
  'sig',
  'image',
  'bytes',
];
/** Payout accounts are kept to their last 4 characters, enough for an operator to tell them apart. */
const ACCOUNT_KEYS = ['iban', 'papara', 'account', 'accountNumber', 'account_number', 'paparaNumber'];

/** An IBAN or Papara number cut to its last 4 characters. */
export function maskAccount(value: unknown): string {
  const text = typeof value === 'string' ? value.replace(/\s+/g, '') : String(value ?? '');
  return text.length <= 4 ? '****' : `****${text.slice(-4)}`;
}

const SECRET = new Set(SECRET_KEYS.map((k) => k.toLowerCase()));
const ACCOUNT = new Set(ACCOUNT_KEYS.map((k) => k.toLowerCase()));

const PLAIN = 0;
const HIDDEN = 1;
const MASKED = 2;
/**
 * What each key seen so far is: a line's keys are the same few names over and over, so each is
 * lowered and looked up once. Bounded: a caller logging objects with ever-new keys (ids as keys)
 * only stops the remembering, not the scrubbing.
 */
const kinds = new Map<string, number>();
function kindOf(key: string): number {
  let kind = kinds.get(key);
  if (kind === undefined) {
    const lower = key.toLowerCase();
    kind = ACCOUNT.has(lower) ? MASKED : SECRET.has(lower) ? HIDDEN : PLAIN;
    if (kinds.size < 2048) kinds.set(key, kind);
  }
  return kind;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Error);
}

/**
 * What a line carries, with secret values replaced and payout accounts masked, two levels deep.
 * pino's own `redact` does the same by paths, but its wildcard paths cost about 14 µs a line,
 * as much as the rest of a cached task-list request's logging put together; this scan looks at
 * the few keys a line has and copies only when one of them must change.
 */
export function scrub(object: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    const kind = kindOf(key);
    let next = value;
    if (kind === MASKED) next = value == null ? value : maskAccount(value);
    else if (kind === HIDDEN) next = value == null ? value : '[redacted]';
    else if (depth < 1 && isPlainObject(value)) next = scrub(value, depth + 1);
    if (next !== value) {
      copy ??= { ...object };
      copy[key] = next;
    }
  }
  return copy ?? object;
}

let lastMillisecond = -1;
let lastTime = '';
/**
 * pino's isoTime, with the text made once per millisecond: a busy server writes several lines
 * in the same millisecond, and formatting a date is a good part of what a line costs.
 */
function isoTimeOncePerMillisecond(): string {
  const now = Date.now();
  if (now !== lastMillisecond) {
    lastMillisecond = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/** Lines go to `destination` (stdout by default) from this thread: no worker, so the bundle and the single binary log too. */
export async function createLogger(
  options: LogOptions,
  destination?: NodeJS.WritableStream,
): Promise<Logger> {
  const level = (LOG_LEVELS as readonly string[]).includes(options.level) ? options.level : 'info';
  const settings = {
    level,
    base: { node: options.node },
    // the time as ISO text: readable in a log viewer, sortable
    timestamp: isoTimeOncePerMillisecond,
    formatters: {
      level: (label: string) => ({ level: label }),
      log: (object: Record<string, unknown>) => scrub(object),
    },
  };
  if (options.format === 'pretty') {
    // loaded here, not at the top: the plain JSON logger (a server under a process manager)
    // never needs it, and it adds to every start
    const { default: pretty } = await import('pino-pretty');
    const stream = pretty({
      colorize: destination === undefined && process.stdout.isTTY === true,
      sync: true,
      destination: destination ?? 1,
      ignore: 'pid,hostname',
      translateTime: 'SYS:HH:MM:ss.l',
    });
    return pino(settings, stream);
  }
  const sink: { write(line: string): unknown } = destination ?? new LineWriter(1);
  const logger = pino(settings, sink as NodeJS.WritableStream);
  // the request line, written straight to the same place (writeRequestLine)
  rawSinks.set(logger, { write: (line) => sink.write(line), node: JSON.stringify(options.node) });
  return logger;
}

/** JSON loggers and where their lines go, for lines made without pino's serializer. */
const rawSinks = new WeakMap<Logger, { write(line: string): void; node: string }>();

/** The fields of the line each request gets (http/request-log.ts). */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  userId?: string;
}

/**
 * One request's line. On a JSON logger the line is made here, the same fields in the same order
 * as pino writes them (level, time, node, the fields, msg), and handed to its destination: it is
 * the one line every request writes, its keys are fixed and carry nothing to scrub, and pino's
 * general serializer cost more than the rest of the line's work together. Other loggers (pretty
 * lines) go through pino.
 */
export function writeRequestLine(logger: Logger, level: 'info' | 'error', line: RequestLine): void {
  const raw = rawSinks.get(logger);
  if (!raw) {
    logger[level](line, 'request');
    return;
  }
  raw.write(
    `{"level":"${level}"${isoTimeOncePerMillisecond()},"node":${raw.node},"reqId":${JSON.stringify(line.reqId)},"method":${JSON.stringify(line.method)},"route":${JSON.stringify(line.route)},"status":${line.status},"ms":${line.ms}${line.userId === undefined ? '' : `,"userId":${JSON.stringify(line.userId)}`},"msg":"request"}\n`,
  );
}

let current: Logger = pino({ level: 'silent' });

/**
 * The process's logger. Silent until configureLogging: tests and the command-line tools print
 * their own output; `serve` configures it before anything else.
 */
export function log(): Logger {
  return current;
}

/** Makes `logger` the process's logger (serve at its start, tests capturing lines). */
export function setLogger(logger: Logger): void {
  current = logger;
}

/** LOG_LEVEL, LOG_FORMAT and NODE_NAME of an environment, as the logger takes them. */
export function logOptionsFrom(
  env: NodeJS.ProcessEnv,
  node: string,
  isTerminal = process.stdout.isTTY === true,
): LogOptions {
  const format = env.LOG_FORMAT?.trim().toLowerCase();
  return {
    level: env.LOG_LEVEL?.trim().toLowerCase() || 'info',
    format: format === 'pretty' || (format !== 'json' && isTerminal) ? 'pretty' : 'json',
    node,
  };
}

/** A stream that keeps every line written to it, for tests reading what was logged. */
export function captureLines(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}
