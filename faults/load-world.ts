// Shared state of the load suite: what the clients know (accounts, tasks, the payout minimum),
// the client-side money model built only from acknowledged answers, the counters, and the
// request plumbing (multipart bodies, valid account numbers, the 5xx check with the seed and
// the actor's history in the message).
import type http from 'node:http';
import { type Answer, type RequestSpec, send } from '../bench/load';
import {
  multipart as buildMultipart,
  type Part,
} from '../src-server/features/submissions/submission-test-helpers';

export type { Part };

export interface Account {
  id: string;
  email: string;
  password: string;
  name: string;
  /** 'actor' plays in the load; 'spare' is a target for role and status edits; 'throwaway' was registered during the load. */
  kind: 'admin' | 'actor' | 'spare' | 'throwaway';
  deleted?: boolean;
}

export interface KnownTask {
  id: string;
  deleted: boolean;
}

/** What the clients saw acknowledged: the money the database must hold, nothing more or less. */
export class MoneyModel {
  /** approved submission id -> reward (kuruş) and payee, from 200 answers to approving reviews */
  rewards = new Map<string, { kurus: number; userId: string }>();
  rejectedSubmissions = new Set<string>();
  /** withdrawal id -> amount (kuruş) and owner, from 201 answers (replays give the same id) */
  withdrawals = new Map<string, { kurus: number; userId: string }>();
  approvedWithdrawals = new Set<string>();
  rejectedWithdrawals = new Set<string>();
  /** 200 answers to admin user edits that carried a balance */
  balanceEdits = 0;
  /** userId -> the balances set by acknowledged edits (an adjustment row each time it changed) */
  balanceEditsByUser = new Map<string, number>();
}

export const toKurus = (tl: number): number => Math.round(tl * 100);

/** A valid Turkish IBAN (TR, two check digits, 22 digits) from a random source. */
export function turkishIban(rand: () => number): string {
  let bban = '';
  for (let i = 0; i < 22; i++) bban += String(Math.floor(rand() * 10));
  // T = 29, R = 27; check digits 00 while computing
  const numeric = `${bban}292700`;
  let rest = 0;
  for (const d of numeric) rest = (rest * 10 + Number(d)) % 97;
  return `TR${String(98 - rest).padStart(2, '0')}${bban}`;
}

export function papara(rand: () => number): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += String(Math.floor(rand() * 10));
  return out;
}

/** A multipart/form-data body (the submission tests' builder, as a Buffer for bench/load.ts). */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const built = buildMultipart(parts);
  return { body: Buffer.from(built.body), contentType: built.contentType };
}

/** A failure of the load run: its message carries the seed, the request and the actor's history. */
export class LoadFailure extends Error {}

export interface Reply {
  status: number;
  code: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: JSON replies are read field by field
  json: any;
  answer: Answer;
}

export function parseReply(answer: Answer): Reply {
  let json: unknown = null;
  const type = String(answer.headers['content-type'] ?? '');
  if (type.includes('json')) {
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch {
      json = null;
    }
  }
  const code =
    json && typeof json === 'object' && 'error' in json
      ? String((json as { error?: { code?: unknown } }).error?.code ?? '')
      : null;
  return { status: answer.status, code: code || null, json, answer };
}

/** Counters: operations by kind and status (and error code), requests in all. */
export class Counters {
  byOp = new Map<string, Map<string, number>>();
  requests = 0;
  count(op: string, status: number, code: string | null): void {
    this.requests++;
    let m = this.byOp.get(op);
    if (!m) {
      m = new Map();
      this.byOp.set(op, m);
    }
    const key = code ? `${status} ${code}` : String(status);
    m.set(key, (m.get(key) ?? 0) + 1);
  }
  /** Answers 5xx other than 503 busy (the server's refusal of work it has no room for), by status and code. */
  serverErrors(): string[] {
    const out = new Set<string>();
    for (const m of this.byOp.values())
      for (const k of m.keys()) if (Number(k.split(' ')[0]) >= 500 && k !== '503 busy') out.add(k);
    return [...out];
  }
  statuses(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const m of this.byOp.values())
      for (const [k, n] of m) {
        const s = k.split(' ')[0];
        out[s] = (out[s] ?? 0) + n;
      }
    return out;
  }
  table(): string {
    const lines: string[] = [];
    for (const op of [...this.byOp.keys()].sort()) {
      const m = this.byOp.get(op)!;
      const total = [...m.values()].reduce((a, b) => a + b, 0);
      const parts = [...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`);
      lines.push(`  ${op.padEnd(22)} ${String(total).padStart(6)}  (${parts.join(', ')})`);
    }
    return lines.join('\n');
  }
}

export interface WorldOptions {
  url: string;
  seed: number;
  serverLog: () => string;
}

/** Everything the actors share. */
export class World {
  accounts: Account[] = [];
  admins: Account[] = [];
  tasks: KnownTask[] = [];
  /** users an admin banned or suspended, to be let back in */
  restricted = new Set<string>();
  minimumPayoutKurus = 2000;
  money = new MoneyModel();
  counters = new Counters();
  /** extra concurrent requests (the second of a racing pair) go over their own sockets */
  sideAgent: http.Agent | undefined;
  constructor(readonly options: WorldOptions) {}

  liveTasks(): KnownTask[] {
    return this.tasks.filter((t) => !t.deleted);
  }

  failure(
    what: string,
    history: readonly string[],
    spec?: RequestSpec,
    reply?: Reply,
    who = '',
  ): LoadFailure {
    const body = reply ? reply.answer.body.toString('utf8').slice(0, 800) : '';
    return new LoadFailure(
      [
        `load: ${what}`,
        `seed ${this.options.seed} (replay: FAULTS_SEED=${this.options.seed}${process.env.FAULTS_FULL === '1' ? ' FAULTS_FULL=1' : ''})`,
        spec ? `request: ${spec.method ?? 'GET'} ${spec.path}` : '',
        reply ? `answer: ${reply.status} ${body}` : '',
        `the recent history of ${who || 'the client'}:`,
        ...history.map((h) => `  ${h}`),
        'server log (tail):',
        this.options.serverLog().split('\n').slice(-30).join('\n'),
      ]
        .filter(Boolean)
        .join('\n'),
    );
  }

  /** Failures of actors (also those after the deadline, which runLoad no longer sees). */
  failures: unknown[] = [];
  private inflight = new Set<Promise<unknown>>();

  /** A request outside the closed loop (the setup, the racing second of a pair). */
  sendSide(spec: RequestSpec): Promise<Answer> {
    const p = send(this.options.url, spec, this.sideAgent);
    const tracked: Promise<unknown> = p.then(
      () => this.inflight.delete(tracked),
      () => this.inflight.delete(tracked),
    );
    this.inflight.add(tracked);
    return p;
  }

  /** Waits for the requests beside the loop, and a moment for the actors to note their answers. */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    await new Promise((r) => setTimeout(r, 100));
  }
}
