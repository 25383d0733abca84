import type { ReviewRequest } from '@contract/review';

/** How long a quick decision waits, undoable, before it is sent. */
export const UNDO_SECONDS = 5;

/** A decision the admin made that has not been sent yet. */
export interface HeldDecision {
  id: string;
  title: string;
  request: ReviewRequest;
  /** one per decision: a flush and the timer, or a retry, replay one request (no money twice) */
  key: string;
  /** when it will be sent (ms since the epoch), or while paused how many ms will be left */
  sendAt: number;
  paused: boolean;
}

/**
 * Holds each decision for a few seconds before sending it, so a slip of the `a` key costs
 * nothing: undone in that time, no request ever reaches the server and no money moves; sent, it
 * goes once, with its own Idempotency-Key. Everything runs on the page's one thread, so undo and
 * send cannot interleave: whichever runs first wins and the other sees it (undo answers false
 * once the decision is on its way).
 */
export class DecisionDelay {
  private readonly held = new Map<
    string,
    { decision: HeldDecision; timer: ReturnType<typeof setTimeout> | null; left: number }
  >();
  private paused = false;

  constructor(
    private readonly send: (decision: HeldDecision) => void,
    private readonly changed: () => void,
    private readonly delayMs = UNDO_SECONDS * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Holds a decision; false when one for this item is held already (a second key press). */
  hold(decision: Omit<HeldDecision, 'sendAt' | 'paused'>): boolean {
    if (this.held.has(decision.id)) return false;
    const full = { ...decision, sendAt: this.now() + this.delayMs, paused: this.paused };
    const timer = this.paused ? null : setTimeout(() => this.release(decision.id), this.delayMs);
    this.held.set(decision.id, { decision: full, timer, left: this.delayMs });
    this.changed();
    return true;
  }

  /**
   * Stops the clocks while the admin reaches for an undo (the focus on the list of held
   * decisions), so one is not sent from under the pointer; resume() gives each its time left.
   */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    const now = this.now();
    for (const entry of this.held.values()) {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = null;
      entry.left = Math.max(0, entry.decision.sendAt - now);
      entry.decision = { ...entry.decision, paused: true };
    }
    this.changed();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const now = this.now();
    for (const [id, entry] of this.held) {
      entry.decision = { ...entry.decision, sendAt: now + entry.left, paused: false };
      entry.timer = setTimeout(() => this.release(id), entry.left);
    }
    this.changed();
  }

  /** How many ms a held decision has left (its sendAt, or what was left when paused). */
  leftOf(decision: HeldDecision, now: number): number {
    const entry = this.held.get(decision.id);
    if (decision.paused && entry) return entry.left;
    return Math.max(0, decision.sendAt - now);
  }

  /** Drops a held decision; false when it is not held (never made, or already sent). */
  undo(id: string): boolean {
    const entry = this.held.get(id);
    if (!entry) return false;
    if (entry.timer) clearTimeout(entry.timer);
    this.held.delete(id);
    this.settle();
    this.changed();
    return true;
  }

  /** Sends every held decision now (the admin leaves the screen). */
  flush(): void {
    for (const id of [...this.held.keys()]) this.release(id);
  }

  /** The held decisions, the newest first. */
  list(): HeldDecision[] {
    return [...this.held.values()].map((e) => e.decision).reverse();
  }

  has(id: string): boolean {
    return this.held.has(id);
  }

  private release(id: string): void {
    const entry = this.held.get(id);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    this.held.delete(id);
    this.settle();
    this.changed();
    this.send(entry.decision);
  }

  /** With nothing held the pause ends: the list it came from is gone, and may never say so. */
  private settle(): void {
    if (this.held.size === 0) this.paused = false;
  }
}
