// The 64 clients of the load suite: each an actor written as straight-line async code driven
// by its own seeded PRNG. `runLoad` (bench/load.ts) pulls each actor's next request through
// `nextSpec` and hands the answer back through `deliver`, so the closed loop, the keep-alive
// sockets and the latencies are the benchmark's; an actor's racing second request (two
// reviews of one submission, two sends of one Idempotency-Key) goes beside it.
import type { Answer, RequestSpec } from '../bench/load';
import { CATEGORIES, DIFFICULTIES, TASK_SORTS } from '../src-server/contract/constants';
import { pngFile } from '../src-server/storage/image-fixtures';
import {
  type Account,
  multipart,
  papara,
  parseReply,
  type Reply,
  toKurus,
  turkishIban,
  type World,
} from './load-world';

const RANGES = ['0-10', '10-20', '20-50', '50+'];
const REJECTION_REASONS = [
  'missing_text',
  'no_share',
  'irrelevant_evidence',
  'low_quality_image',
  'wrong_format',
];
const WORDS = ['anket', 'Görev', 'load', 'video', 'İnceleme', 'çekiliş', 'app', 'zzz', '%', '_'];

const PNGS = [pngFile(8, 6), pngFile(16, 16), pngFile(40, 30)];
const BROKEN_PNG = pngFile(30, 30).subarray(0, 70);

type Rand = () => number;

interface Pending {
  resolve: (a: Answer) => void;
  reject: (e: unknown) => void;
}

export abstract class Actor {
  readonly history: string[] = [];
  token = '';
  private queued: RequestSpec | null = null;
  private taker: ((s: RequestSpec) => void) | null = null;
  private takerReject: ((e: unknown) => void) | null = null;
  private waiting: Pending | null = null;
  private failure: unknown = null;
  private currentOp = '';

  constructor(
    readonly world: World,
    readonly index: number,
    readonly rand: Rand,
    readonly account: Account,
  ) {}

  /** Each actor is one client address (TRUST_PROXY=1): the login and registration throttles count per actor. */
  get ip(): string {
    return `10.7.${this.index >> 8}.${(this.index & 255) + 1}`;
  }

  get who(): string {
    return `actor ${this.index} (${this.account.kind} ${this.account.email}, ${this.ip})`;
  }

  // ---- the bridge to runLoad ----

  /** Starts the actor's endless loop; a failure reaches runLoad through the next nextSpec. */
  start(): void {
    const loop = async () => {
      for (;;) await this.step();
    };
    loop().catch((err: unknown) => {
      this.failure = err;
      this.world.failures.push(err);
      if (this.takerReject) this.takerReject(err);
    });
  }

  nextSpec(): Promise<RequestSpec> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.taker = resolve;
      this.takerReject = reject;
      if (this.queued) {
        const s = this.queued;
        this.queued = null;
        this.hand(s);
      }
    });
  }

  /** runLoad's onAnswer: the 5xx check, then the answer goes back to the waiting actor. */
  deliver(answer: Answer, spec: RequestSpec): void {
    this.check(answer, spec);
    const w = this.waiting;
    this.waiting = null;
    w?.resolve(answer);
  }

  private check(answer: Answer, spec: RequestSpec): Reply {
    const reply = parseReply(answer);
    this.world.counters.count(this.currentOp, reply.status, reply.code);
    this.history.push(
      `${this.currentOp}: ${spec.method ?? 'GET'} ${spec.path} -> ${reply.status} ${reply.code ?? ''}`,
    );
    if (this.history.length > 20) this.history.shift();
    // a 503 busy with Retry-After is the server refusing work it has no room for (the queue of
    // image decoding and password hashing is full): by design, nothing happened, try again
    const busy = reply.status === 503 && reply.code === 'busy' && answer.headers['retry-after'] !== undefined;
    if (reply.status >= 500 && !busy)
      throw this.world.failure(`a ${reply.status} answer`, this.history, spec, reply, this.who);
    return reply;
  }

  private withHeaders(spec: RequestSpec, anonymous: boolean): RequestSpec {
    const headers: Record<string, string> = { 'X-Forwarded-For': this.ip, ...spec.headers };
    if (!anonymous && this.token) headers.Authorization = `Bearer ${this.token}`;
    if (spec.body !== undefined && typeof spec.body === 'string' && !headers['Content-Type'])
      headers['Content-Type'] = 'application/json';
    return { ...spec, headers };
  }

  /**
   * One request through the closed loop. `onTaken` runs when runLoad takes it to send: after
   * the deadline nothing is taken, so nothing beside it starts either.
   */
  async req(op: string, spec: RequestSpec, anonymous = false, onTaken?: () => void): Promise<Reply> {
    const full = this.withHeaders(spec, anonymous);
    const answer = await new Promise<Answer>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.currentOp = op;
      this.onTaken = onTaken ?? null;
      if (this.taker) this.hand(full);
      else this.queued = full;
    });
    return parseReply(answer);
  }

  private onTaken: (() => void) | null = null;

  private hand(spec: RequestSpec): void {
    const t = this.taker;
    this.taker = null;
    this.takerReject = null;
    const hook = this.onTaken;
    this.onTaken = null;
    t?.(spec);
    hook?.();
  }

  /** Two requests at once: the first through the loop, the second beside it as the first is sent. */
  async pair(op: string, a: RequestSpec, b: RequestSpec): Promise<[Reply, Reply]> {
    const fb = this.withHeaders(b, false);
    let side: Promise<Answer | Error> | null = null;
    const ra = await this.req(op, a, false, () => {
      // settled into a value at once: a failure is reported below, never as an unhandled rejection
      side = this.world
        .sendSide(fb)
        .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    });
    const answerB = await (side as Promise<Answer | Error> | null)!;
    this.currentOp = op;
    if (answerB instanceof Error) this.fail(`the racing request failed to connect: ${answerB.message}`, fb);
    const rb = this.check(answerB, fb);
    return [ra, rb];
  }

  fail(what: string, spec?: RequestSpec, reply?: Reply): never {
    throw this.world.failure(what, this.history, spec, reply, this.who);
  }

  // ---- choices ----

  chance(p: number): boolean {
    return this.rand() < p;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)];
  }
  weighted(entries: [number, () => Promise<void>][]): Promise<void> {
    const total = entries.reduce((a, [w]) => a + w, 0);
    let r = this.rand() * total;
    for (const [w, f] of entries) {
      r -= w;
      if (r < 0) return f();
    }
    return entries[entries.length - 1][1]();
  }
  randomTaskId(): string | null {
    const all = this.world.tasks;
    if (all.length === 0) return null;
    // mostly live ones; now and then a deleted one (404) or a made-up id
    if (this.chance(0.03)) return 'ffffffffffffffffffffffff';
    const live = this.world.liveTasks();
    return this.chance(0.9) && live.length > 0 ? this.pick(live).id : this.pick(all).id;
  }
  png(): Buffer {
    return this.pick(PNGS);
  }
  query(params: Record<string, string | number | undefined>): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
    const s = q.toString();
    return s ? `?${s}` : '';
  }

  abstract step(): Promise<void>;

  /** The first round: every operation once (rotated per actor), so even a short run covers the mix. */
  private tour: (() => Promise<void>)[] | null = null;
  protected touring(all: (() => Promise<void>)[]): (() => Promise<void>) | undefined {
    if (!this.tour) {
      const k = this.index % all.length;
      this.tour = [...all.slice(k), ...all.slice(0, k)];
    }
    return this.tour.shift();
  }

  // ---- operations both kinds of actor do ----

  async login(wrong = false): Promise<void> {
    const a = this.account;
    const email = wrong && this.chance(0.7) ? `nobody-${this.index}-${this.int(1, 50)}@load.test` : a.email;
    const body = { email, password: wrong ? 'wrong-password' : a.password, device_id: `dev-${this.index}` };
    const r = await this.req(wrong ? 'login (wrong)' : 'login', {
      method: 'POST',
      path: '/api/auth/login',
      body: JSON.stringify(body),
    });
    if (!wrong && r.status === 200) this.token = r.json.token;
    if (wrong && r.status === 200) this.fail('a wrong password signed in', undefined, r);
  }

  async listTasks(): Promise<void> {
    const anonymous = this.chance(0.15);
    const path = `/api/tasks${this.query({
      q: this.chance(0.3) ? this.pick(WORDS) : undefined,
      category: this.chance(0.3) ? this.pick(CATEGORIES) : undefined,
      difficulty: this.chance(0.2) ? this.pick(DIFFICULTIES) : undefined,
      rewardRange: this.chance(0.2) ? this.pick(RANGES) : undefined,
      sort: this.chance(0.6) ? this.pick(TASK_SORTS) : undefined,
      page: this.chance(0.8) ? this.int(1, 3) : this.int(4, 500),
      limit: this.chance(0.7) ? undefined : this.pick([1, 5, 10, 50, 100, 101]),
    })}`;
    await this.req(anonymous ? 'tasks list (visitor)' : 'tasks list', { path }, anonymous);
  }

  async taskDetail(): Promise<void> {
    const id = this.randomTaskId();
    if (id) await this.req('task detail', { path: `/api/tasks/${id}` }, this.chance(0.1));
  }

  async settings(): Promise<void> {
    await this.req('settings get', { path: '/api/settings' }, this.chance(0.5));
  }
}

interface MyTask {
  taskId: string;
  status: 'in_progress' | 'completed';
  submission: 'pending' | 'approved' | 'rejected' | null;
}

/** A user: browses, starts tasks, uploads proofs, edits the profile, withdraws. */
export class UserActor extends Actor {
  private mine = new Map<string, MyTask>();
  private balanceKurus = 0;
  private registered = 0;

  async step(): Promise<void> {
    if (!this.token) return this.login();
    const ops: [number, () => Promise<void>][] = [
      [16, () => this.listTasks()],
      [8, () => this.taskDetail()],
      [10, () => this.startTask()],
      [12, () => this.submitProof()],
      [3, () => this.restartTask()],
      [5, () => this.refreshMine()],
      [4, () => this.mySubmissions()],
      [3, () => this.myWithdrawals()],
      [4, () => this.me()],
      [2, () => this.completedTasks()],
      [2, () => this.updateProfile()],
      [1, () => this.updatePhoto()],
      [8, () => this.withdraw()],
      [2, () => this.login(this.chance(0.3))],
      [0.6, () => this.register()],
      [2, () => this.settings()],
      [1, () => this.forbiddenAdminCall()],
    ];
    const first = this.touring(ops.map(([, f]) => f));
    await (first ? first() : this.weighted(ops));
  }

  private async refreshMine(): Promise<void> {
    const r = await this.req('my tasks', { path: '/api/tasks/user' });
    if (r.status !== 200) return;
    this.mine.clear();
    for (const rec of r.json.data as Array<{
      task: { _id: string };
      status: MyTask['status'];
      submission: { status: MyTask['submission'] } | null;
    }>) {
      this.mine.set(rec.task._id, {
        taskId: rec.task._id,
        status: rec.status,
        submission: rec.submission?.status ?? null,
      });
    }
  }

  private async startTask(): Promise<void> {
    const live = this.world.liveTasks().filter((t) => !this.mine.has(t.id));
    // now and then one already started (409 task_already_started)
    const task = live.length > 0 && this.chance(0.92) ? this.pick(live) : this.pick(this.world.tasks);
    if (!task) return;
    const r = await this.req('task start', { method: 'POST', path: `/api/tasks/${task.id}/start` });
    if (r.status === 201)
      this.mine.set(task.id, { taskId: task.id, status: 'in_progress', submission: null });
    if (r.json?.error?.code === 'task_already_started' && !this.mine.has(task.id)) await this.refreshMine();
  }

  private async submitProof(): Promise<void> {
    let open = [...this.mine.values()].filter((m) => m.status === 'in_progress');
    if (open.length === 0 && this.chance(0.5)) {
      await this.refreshMine();
      open = [...this.mine.values()].filter((m) => m.status === 'in_progress');
    }
    const target = open.length > 0 ? this.pick(open) : [...this.mine.values()][0];
    if (!target) return this.startTask();
    const variant = this.rand();
    const parts = [
      { name: 'task', value: target.taskId },
      { name: 'description', value: `proof from actor ${this.index}` },
    ];
    if (variant < 0.04) {
      // no file: 422 proof_required
    } else if (variant < 0.08) {
      parts.push({ name: 'proofImage', filename: 'p.png', type: 'image/png', data: BROKEN_PNG } as never);
    } else {
      parts.push({ name: 'proofImage', filename: 'p.png', type: 'image/png', data: this.png() } as never);
    }
    const { body, contentType } = multipart(parts);
    const r = await this.req('submission upload', {
      method: 'POST',
      path: '/api/submissions',
      headers: { 'Content-Type': contentType },
      body,
    });
    if (r.status === 201)
      this.mine.set(target.taskId, { ...target, status: 'completed', submission: 'pending' });
  }

  private async restartTask(): Promise<void> {
    await this.refreshMine();
    const rejected = [...this.mine.values()].filter((m) => m.submission === 'rejected');
    const target = rejected.length > 0 ? this.pick(rejected) : [...this.mine.values()][0];
    if (!target) return;
    const r = await this.req('task restart', { method: 'POST', path: `/api/tasks/${target.taskId}/restart` });
    if (r.status === 200) this.mine.set(target.taskId, { ...target, status: 'in_progress' });
  }

  private async mySubmissions(): Promise<void> {
    const status = this.pick([undefined, 'pending', 'approved', 'rejected', 'all']);
    await this.req('my submissions', { path: `/api/submissions/user${this.query({ status })}` });
  }

  private async myWithdrawals(): Promise<void> {
    await this.req('my withdrawals', { path: '/api/withdraws' });
  }

  private async me(): Promise<void> {
    const r = await this.req('me', { path: '/api/users/me' });
    if (r.status === 200) this.balanceKurus = toKurus(r.json.data.balance);
  }

  private async completedTasks(): Promise<void> {
    await this.req('my completed tasks', { path: '/api/users/me/completed-tasks' });
  }

  private async updateProfile(): Promise<void> {
    const invalid = this.chance(0.1);
    const body = {
      name: `Load User ${this.index}`,
      phone: invalid ? 'not a phone' : `0532 ${this.int(100, 999)} ${this.int(10, 99)} ${this.int(10, 99)}`,
      address: this.chance(0.5) ? 'İzmir' : '',
      bio: this.chance(0.5) ? `bio ${this.int(1, 1000)}` : null,
    };
    await this.req('profile update', { method: 'PUT', path: '/api/users/me', body: JSON.stringify(body) });
  }

  private async updatePhoto(): Promise<void> {
    const broken = this.chance(0.1);
    const { body, contentType } = multipart([
      { name: 'name', value: `Load User ${this.index}` },
      { name: 'bio', value: 'with a photo' },
      { name: 'profileImage', filename: 'me.png', type: 'image/png', data: broken ? BROKEN_PNG : this.png() },
    ]);
    await this.req('profile photo', {
      method: 'PUT',
      path: '/api/users/me',
      headers: { 'Content-Type': contentType },
      body,
    });
  }

  private async withdraw(): Promise<void> {
    await this.me();
    const min = this.world.minimumPayoutKurus;
    let amount: number;
    const v = this.rand();
    if (this.balanceKurus >= min && v < 0.8) amount = this.int(min, Math.min(this.balanceKurus, min * 3));
    else if (v < 0.87) amount = Math.max(1, min - this.int(1, 500));
    else if (v < 0.94) amount = this.balanceKurus + this.int(1, 5000);
    else amount = 0;
    const iban = this.chance(0.5);
    const badNumber = this.chance(0.05);
    const body = JSON.stringify({
      amount: amount / 100,
      paymentMethod: iban ? 'iban' : 'papara',
      accountDetails: {
        fullName: this.chance(0.03) ? '' : `Load User ${this.index}`,
        accountNumber: badNumber ? '12345' : iban ? turkishIban(this.rand) : papara(this.rand),
      },
    });
    const keyed = this.chance(0.5);
    const key = `w-${this.index}-${this.int(0, 1e9)}`;
    const spec = {
      method: 'POST',
      path: '/api/withdraws',
      body,
      headers: keyed ? { 'Idempotency-Key': key } : ({} as Record<string, string>),
    };
    if (keyed && this.chance(0.25)) {
      // the same key sent twice at once: one withdrawal at most, the other a replay or a 409
      const [a, b] = await this.pair('withdraw (racing key)', spec, spec);
      this.noteWithdrawal(a);
      this.noteWithdrawal(b);
      if (a.status === 201 && b.status === 201 && a.json.data._id !== b.json.data._id)
        this.fail('one Idempotency-Key made two withdrawals', spec, b);
      return;
    }
    const first = await this.req(keyed ? 'withdraw (keyed)' : 'withdraw', spec);
    this.noteWithdrawal(first);
    if (keyed && first.status === 201 && this.chance(0.5)) {
      const again = await this.req('withdraw (replay)', spec);
      // an admin actor may have banned or suspended this account between the two: the replay is
      // then refused like any request of theirs (the money check at the end still counts one
      // withdrawal)
      if (again.status === 403 && (again.code === 'banned' || again.code === 'suspended')) return;
      if (
        again.status !== first.status ||
        again.answer.body.toString() !== first.answer.body.toString() ||
        again.answer.headers['idempotent-replayed'] !== 'true'
      )
        this.fail('a replayed withdrawal did not get the first reply', spec, again);
      // the same key with another body is refused
      if (this.chance(0.3)) {
        const other = await this.req('withdraw (key reused)', {
          ...spec,
          body: body.replace('"amount":', '"amount":0.5,"x":'),
        });
        if (other.status < 400)
          this.fail('a reused Idempotency-Key was accepted for another body', spec, other);
      }
    }
  }

  private noteWithdrawal(r: Reply): void {
    if (r.status !== 201) return;
    const d = r.json.data;
    const seen = this.world.money.withdrawals.get(d._id);
    if (seen && seen.kurus !== toKurus(d.amount)) this.fail('a withdrawal changed its amount', undefined, r);
    this.world.money.withdrawals.set(d._id, { kurus: toKurus(d.amount), userId: this.account.id });
  }

  private async register(): Promise<void> {
    if (this.registered >= 8) return this.login();
    this.registered++;
    const n = this.int(0, 1e9);
    const duplicate = this.chance(0.1);
    const email = duplicate ? this.account.email : `thrown-${this.index}-${n}@load.test`;
    const body = {
      name: `Thrown ${this.index} ${n}`,
      email,
      password: this.chance(0.05) ? '123' : 'thrown-pass',
      device_id: `dev-${this.index}-${n}`,
    };
    const r = await this.req(
      'register',
      { method: 'POST', path: '/api/auth/register', body: JSON.stringify(body) },
      true,
    );
    if (r.status === 201)
      this.world.accounts.push({
        id: r.json.data._id,
        email,
        password: body.password,
        name: body.name,
        kind: 'throwaway',
      });
    if (duplicate && r.status === 201) this.fail('an email in use was registered again', undefined, r);
  }

  private async forbiddenAdminCall(): Promise<void> {
    const path = this.pick([
      '/api/admin/stats',
      '/api/admin/users',
      '/api/admin/withdraws',
      '/api/submissions',
    ]);
    const r = await this.req('admin call by a user', { path });
    if (r.status < 400) this.fail('a user reached an admin route', { path }, r);
  }
}

/** How many admins act (the load's first actors); the tour shares the lists and the edits among them. */
export const ADMIN_ACTORS = 6;
/** One entry per admin list of adminList (its index picks the path). */
const ADMIN_LISTS = Array.from({ length: 11 }, (_, i) => i);
/** A random draw that lands in each branch of editUser: balance, ban, suspend, role, invalid, email, negative, phone. */
const USER_EDITS = [0.1, 0.46, 0.55, 0.65, 0.75, 0.83, 0.88, 0.95];

/** An admin: reviews, pays out, runs tasks, users and settings, and reads every list. */
export class AdminActor extends Actor {
  async step(): Promise<void> {
    if (!this.token) return this.login();
    const restricted = this.world.restricted.size;
    if (restricted > 0 && this.chance(restricted >= 3 ? 0.5 : 0.15)) return this.letBackIn();
    const ops: [number, () => Promise<void>][] = [
      [22, () => this.review()],
      [14, () => this.decideWithdrawal()],
      [5, () => this.createTask()],
      [4, () => this.updateTask()],
      [3, () => this.featureTask()],
      [1, () => this.deleteTask()],
      [8, () => this.editUser()],
      [1, () => this.deleteUser()],
      [14, () => this.adminList()],
      [3, () => this.listTasks()],
      [2, () => this.taskDetail()],
      [2, () => this.updateSettings()],
      [1, () => this.uploadSiteImage()],
      [1, () => this.settings()],
      [1, () => this.notify()],
      [0.5, () => this.login(this.chance(0.2))],
    ];
    // the tour: the operations, then this admin's share of the lists and of the user edits
    const share = <T>(items: T[]) => items.filter((_, i) => i % ADMIN_ACTORS === this.index % ADMIN_ACTORS);
    const first = this.touring([
      ...ops.map(([, f]) => f),
      ...share(ADMIN_LISTS.map((_, i) => () => this.adminList(i))),
      ...share(USER_EDITS.map((v) => () => this.editUser(v))),
    ]);
    await (first ? first() : this.weighted(ops));
  }

  // ---- reviews ----

  private async review(): Promise<void> {
    const page = await this.req('admin submissions', {
      path: `/api/admin/submissions?status=pending&limit=${this.pick([5, 10, 20])}`,
    });
    if (page.status !== 200) return;
    const items = page.json.data.items as Array<{ _id: string }>;
    // the oldest few: admins often pick the same one
    for (let n = Math.min(items.length, this.int(1, 3)); n > 0; n--) {
      const id = (this.chance(0.6) ? items[0] : this.pick(items.slice(0, 3)))._id;
      items.splice(
        items.findIndex((i) => i._id === id),
        1,
      );
      await this.reviewOne(id);
    }
  }

  private async reviewOne(id: string): Promise<void> {
    const path = `/api/submissions/${id}/review`;
    const approve = this.chance(0.6);
    const body = (ok: boolean) =>
      JSON.stringify(
        ok
          ? { status: 'approved', feedback: 'task completed successfully' }
          : { status: 'rejected', feedback: 'not this time', rejectionReason: this.pick(REJECTION_REASONS) },
      );
    const v = this.rand();
    if (v < 0.05) {
      await this.req('review (invalid)', {
        method: 'PUT',
        path,
        body: JSON.stringify({ status: 'rejected', feedback: 'x' }),
      });
      return;
    }
    if (v < 0.2) {
      // two reviews of one submission at once: at most one may change it
      const [a, b] = await this.pair(
        'review (racing pair)',
        { method: 'PUT', path, body: body(approve) },
        { method: 'PUT', path, body: body(this.chance(0.5)) },
      );
      this.noteReview(a);
      this.noteReview(b);
      if (a.status === 200 && b.status === 200)
        this.fail('two concurrent reviews both succeeded', { path }, b);
      return;
    }
    const keyed = v < 0.35;
    const spec = {
      method: 'PUT',
      path,
      body: body(approve),
      headers: keyed
        ? { 'Idempotency-Key': `r-${this.index}-${this.int(0, 1e9)}` }
        : ({} as Record<string, string>),
    };
    const first = await this.req(keyed ? 'review (keyed)' : 'review', spec);
    this.noteReview(first);
    if (keyed && first.status === 200) {
      const again = await this.req('review (replay)', spec);
      if (again.answer.body.toString() !== first.answer.body.toString() || again.status !== 200)
        this.fail('a replayed review did not get the first reply', spec, again);
      // and without the key, the same review is a 409
      const plain = await this.req('review (again)', { ...spec, headers: {} });
      if (plain.status !== 409) this.fail('a second review was not refused', spec, plain);
    }
  }

  private noteReview(r: Reply): void {
    if (r.status !== 200 || r.answer.headers['idempotent-replayed'] === 'true') return;
    const d = r.json.data;
    const m = this.world.money;
    if (m.rewards.has(d._id) || m.rejectedSubmissions.has(d._id))
      this.fail(`submission ${d._id} was reviewed twice`, undefined, r);
    if (d.status === 'approved') m.rewards.set(d._id, { kurus: toKurus(d.reward), userId: d.user._id });
    else m.rejectedSubmissions.add(d._id);
  }

  // ---- withdrawals ----

  private async decideWithdrawal(): Promise<void> {
    const page = await this.req('admin withdrawals', {
      path: `/api/admin/withdraws?status=pending&limit=${this.pick([5, 10])}`,
    });
    if (page.status !== 200) return;
    const items = page.json.data.items as Array<{ _id: string }>;
    if (items.length === 0) return;
    const id = (this.chance(0.6) ? items[0] : this.pick(items.slice(0, 3)))._id;
    const approve = this.chance(0.55);
    const spec = (ok: boolean, key?: string): RequestSpec => ({
      method: 'PUT',
      path: `/api/admin/withdraws/${id}/${ok ? 'approve' : 'reject'}`,
      body: ok ? '{}' : JSON.stringify({ reason: this.chance(0.05) ? '' : 'account details do not match' }),
      headers: key ? { 'Idempotency-Key': key } : ({} as Record<string, string>),
    });
    const v = this.rand();
    if (v < 0.15) {
      const [a, b] = await this.pair('withdrawal (racing pair)', spec(approve), spec(this.chance(0.5)));
      this.noteDecision(a, id);
      this.noteDecision(b, id);
      if (a.status === 200 && b.status === 200)
        this.fail('two concurrent decisions both succeeded', undefined, b);
      return;
    }
    const key = v < 0.3 ? `wd-${this.index}-${this.int(0, 1e9)}` : undefined;
    const s = spec(approve, key);
    const first = await this.req(key ? 'withdrawal decide (keyed)' : 'withdrawal decide', s);
    this.noteDecision(first, id);
    if (key && first.status === 200) {
      const again = await this.req('withdrawal decide (replay)', s);
      if (again.status !== 200 || again.answer.body.toString() !== first.answer.body.toString())
        this.fail('a replayed withdrawal decision did not get the first reply', s, again);
    }
  }

  private noteDecision(r: Reply, id: string): void {
    if (r.status !== 200 || r.answer.headers['idempotent-replayed'] === 'true') return;
    const m = this.world.money;
    if (m.approvedWithdrawals.has(id) || m.rejectedWithdrawals.has(id))
      this.fail(`withdrawal ${id} was decided twice`, undefined, r);
    if (r.json.data.status === 'approved') m.approvedWithdrawals.add(id);
    else if (r.json.data.status === 'rejected') m.rejectedWithdrawals.add(id);
    else this.fail('a decided withdrawal came back neither approved nor rejected', undefined, r);
  }

  // ---- tasks ----

  taskBody(): Record<string, unknown> {
    const small = this.chance(0.25);
    const body: Record<string, unknown> = {
      title: `${this.pick(WORDS)} görevi ${this.int(1, 1e6)}`,
      description: `Load task by admin ${this.index}: ${this.pick(WORDS)}`,
      reward: this.int(1, 6000) / 100,
      maxCompletions: small ? this.int(1, 3) : this.int(50, 1000),
      category: this.pick(CATEGORIES),
      difficulty: this.pick(DIFFICULTIES),
      requiredProof: this.pick(['screenshot', 'link', 'code', 'text', 'none']),
      estimatedTime: this.int(1, 60),
      isFeatured: this.chance(0.2),
    };
    if (this.chance(0.3))
      body.automaticComments = ['Harika uygulama', 'Çok beğendim', 'Tavsiye ederim', ' ', 'Harika uygulama'];
    if (this.chance(0.3)) body.steps = ['Open the link', 'Do it', 'Screenshot'];
    if (this.chance(0.2)) body.taskLink = 'https://example.com/t';
    if (this.chance(0.2)) body.deadline = `${new Date().getUTCFullYear() + 1}-06-30`;
    return body;
  }

  async createTask(): Promise<void> {
    const body = this.taskBody();
    const v = this.rand();
    if (v < 0.05) delete body.title;
    else if (v < 0.08) body.deadline = '2001-01-01';
    else if (v < 0.1) body.reward = 0.001;
    const r = await this.req('task create', {
      method: 'POST',
      path: '/api/tasks',
      body: JSON.stringify(body),
    });
    if (r.status === 201) this.world.tasks.push({ id: r.json.data._id, deleted: false });
  }

  private async updateTask(): Promise<void> {
    const id = this.randomTaskId();
    if (!id) return;
    const patch: Record<string, unknown> = {};
    const v = this.rand();
    if (v < 0.25) patch.reward = this.int(1, 6000) / 100;
    else if (v < 0.45) patch.maxCompletions = this.int(1, 1000);
    else if (v < 0.6) patch.status = this.pick(['active', 'active', 'inactive', 'completed']);
    else if (v < 0.75) patch.automaticComments = ['Yeni yorum', `Yorum ${this.int(1, 99)}`];
    else if (v < 0.85) patch.title = `Güncellendi ${this.int(1, 1e6)}`;
    else if (v < 0.93) patch.deadline = this.chance(0.5) ? '' : '2001-01-01';
    else patch.reward = -5;
    await this.req('task update', { method: 'PUT', path: `/api/tasks/${id}`, body: JSON.stringify(patch) });
  }

  private async featureTask(): Promise<void> {
    const id = this.randomTaskId();
    if (!id) return;
    await this.req('task feature', {
      method: 'PUT',
      path: `/api/tasks/${id}/feature`,
      body: JSON.stringify({ isFeatured: this.chance(0.5) }),
    });
  }

  private async deleteTask(): Promise<void> {
    const live = this.world.liveTasks();
    if (live.length < 25) return this.createTask();
    const task = this.pick(live);
    const r = await this.req('task delete', { method: 'DELETE', path: `/api/tasks/${task.id}` });
    if (r.status === 200) task.deleted = true;
  }

  // ---- users ----

  private async letBackIn(): Promise<void> {
    const id = this.pick([...this.world.restricted]);
    const account = this.world.accounts.find((a) => a.id === id);
    if (!account) return;
    const r = await this.req('user unban', {
      method: 'PUT',
      path: `/api/admin/users/${id}`,
      body: JSON.stringify({ name: account.name, email: account.email, status: 'active', banReason: '' }),
    });
    if (r.status === 200 || r.status === 404) this.world.restricted.delete(id);
  }

  private async editUser(forced?: number): Promise<void> {
    const v = forced ?? this.rand();
    // the status edits need an actor or a throwaway account, the role edits a spare one
    const want = v >= 0.45 && v < 0.6 ? 'not spare' : v >= 0.6 && v < 0.72 ? 'spare' : 'any';
    const targets = this.world.accounts.filter(
      (a) =>
        a.kind !== 'admin' && !a.deleted && (want === 'any' || (want === 'spare') === (a.kind === 'spare')),
    );
    if (targets.length === 0) return;
    const target = this.pick(targets);
    const detail = await this.req('admin user detail', { path: `/api/admin/users/${target.id}` });
    if (detail.status !== 200) return;
    const base = { name: target.name, email: target.email };
    let body: Record<string, unknown>;
    let op = 'user edit';
    if (v < 0.45) {
      const now = toKurus(detail.json.data.balance);
      const next = Math.max(0, now + this.int(-3000, 6000));
      body = { ...base, balance: next / 100 };
      op = 'user balance edit';
    } else if (v < 0.6 && target.kind !== 'spare') {
      const status =
        forced === undefined ? this.pick(['banned', 'suspended']) : v < 0.5 ? 'banned' : 'suspended';
      body = { ...base, status, banReason: status === 'banned' ? 'load test ban' : '' };
      op = `user ${status === 'banned' ? 'ban' : 'suspend'}`;
    } else if (v < 0.72 && target.kind === 'spare') {
      body = { ...base, role: this.chance(0.5) ? 'admin' : 'user' };
      op = 'user role edit';
    } else if (v < 0.8) {
      body = { ...base, status: 'banned', banReason: '  ' };
      op = 'user edit (invalid)';
    } else if (v < 0.86) {
      body = { ...base, email: this.pick(this.world.accounts).email };
      op = 'user edit (email)';
    } else if (v < 0.9) {
      body = { ...base, balance: -1 };
      op = 'user edit (invalid)';
    } else {
      body = { ...base, phone: '0555 000 00 00' };
    }
    const r = await this.req(op, {
      method: 'PUT',
      path: `/api/admin/users/${target.id}`,
      body: JSON.stringify(body),
    });
    if (r.status !== 200) return;
    // an address freed by a deleted account can be taken: the account signs in with it from now on
    if (typeof body.email === 'string') target.email = body.email;
    if (body.balance !== undefined) {
      this.world.money.balanceEdits++;
      const m = this.world.money.balanceEditsByUser;
      m.set(target.id, (m.get(target.id) ?? 0) + 1);
    }
    if (body.status === 'banned' || body.status === 'suspended') this.world.restricted.add(target.id);
  }

  private async deleteUser(): Promise<void> {
    const thrown = this.world.accounts.filter((a) => a.kind === 'throwaway' && !a.deleted);
    if (thrown.length === 0) return this.adminList();
    const target = this.pick(thrown);
    const r = await this.req('user delete', { method: 'DELETE', path: `/api/admin/users/${target.id}` });
    if (r.status === 200) target.deleted = true;
  }

  // ---- lists and stats ----

  private async adminList(which?: number): Promise<void> {
    const someUser = this.pick(this.world.accounts);
    const deep = () => (this.chance(0.7) ? this.int(1, 3) : this.int(4, 2000));
    const paths = [
      () =>
        `/api/admin/users${this.query({
          q: this.chance(0.3) ? this.pick(['load', 'Thrown', 'actor', '@', 'zz']) : undefined,
          status: this.pick([undefined, 'all', 'active', 'suspended', 'banned', 'admin', 'push']),
          page: deep(),
          limit: this.pick([undefined, 10, 50, 100]),
        })}`,
      () =>
        `/api/admin/withdraws${this.query({
          status: this.pick([undefined, 'all', 'pending', 'approved', 'rejected']),
          from: this.chance(0.3) ? '2020-01-01' : undefined,
          to: this.chance(0.3) ? '2099-12-31' : undefined,
          q: this.chance(0.2) ? this.pick(['Load', 'TR', '12']) : undefined,
          userId: this.chance(0.2) ? someUser.id : undefined,
          page: deep(),
        })}`,
      () =>
        `/api/admin/submissions${this.query({
          status: this.pick([undefined, 'all', 'pending', 'approved', 'rejected']),
          q: this.chance(0.2) ? this.pick(WORDS) : undefined,
          page: deep(),
          limit: this.pick([undefined, 10, 100]),
        })}`,
      () => `/api/submissions${this.query({ status: this.pick([undefined, 'approved']), page: deep() })}`,
      () =>
        `/api/tasks${this.query({
          all: 1,
          status: this.pick([undefined, 'active', 'inactive', 'completed', 'cancelled']),
          page: deep(),
          sort: this.pick(TASK_SORTS),
        })}`,
      () => `/api/admin/users/${someUser.id}`,
      () => `/api/admin/users/${someUser.id}/submissions${this.query({ page: deep() })}`,
      () => `/api/admin/users/${someUser.id}/withdrawals${this.query({ page: deep() })}`,
      () => `/api/admin/submissions/recent${this.query({ limit: this.pick([undefined, 5, 50]) })}`,
      () => '/api/admin/stats',
      () => '/api/admin/stats/today',
    ];
    const path = (which === undefined ? this.pick(paths) : paths[which % paths.length])();
    const op = `admin ${path.split('?')[0].replace(/[0-9a-f]{24}/, ':id')}`;
    await this.req(op, { path });
  }

  // ---- settings and notifications ----

  private async updateSettings(): Promise<void> {
    const v = this.rand();
    let body: Record<string, unknown>;
    if (v < 0.3) {
      const min = this.pick([10, 15, 20]);
      body = { payment: { minimumPayout: min, methods: ['papara', 'iban'] } };
    } else if (v < 0.55) body = { site: { name: `TaskReward ${this.int(1, 99)}` } };
    else if (v < 0.75) body = { contact: { phone: '+90 850 000 00 00', email: 'destek@taskreward.app' } };
    else if (v < 0.9) body = { socialMedia: { twitter: 'https://x.com/taskreward' } };
    else body = { payment: { minimumPayout: -5 } };
    const r = await this.req('settings update', {
      method: 'PUT',
      path: '/api/settings',
      body: JSON.stringify(body),
    });
    if (r.status === 200) this.world.minimumPayoutKurus = toKurus(r.json.data.payment.minimumPayout);
  }

  private async uploadSiteImage(): Promise<void> {
    const which = this.pick(['logo', 'favicon']);
    const { body, contentType } = multipart([
      {
        name: which,
        filename: 'image.png',
        type: 'image/png',
        data: this.chance(0.1) ? BROKEN_PNG : this.png(),
      },
    ]);
    await this.req(`settings ${which}`, {
      method: 'PUT',
      path: `/api/settings/${which}`,
      headers: { 'Content-Type': contentType },
      body,
    });
  }

  private async notify(): Promise<void> {
    const body = this.pick([
      { notificationType: 'newTask', target: 'all' },
      { notificationType: 'customMessage', target: 'all', title: 'Yeni görevler', message: 'Hemen bak' },
      { notificationType: 'customMessage', target: 'all', title: '', message: 'x' },
      { notificationType: 'isAccepted', target: 'user', playerId: 'player-1' },
      { notificationType: 'isAccepted', target: 'user' },
      { notificationType: 'nope' },
    ]);
    await this.req('send notification', {
      method: 'POST',
      path: '/api/auth/send-notification',
      body: JSON.stringify(body),
    });
  }
}
