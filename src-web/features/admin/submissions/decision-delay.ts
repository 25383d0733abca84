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
  /** when it will be sent (ms since the epoch) */
  sendAt: number;
}

/**
 * Holds each decision for a few seconds before sending it, so a slip of the `a` key costs
 * nothing: undone in that time, no request ever reaches the server and no money moves; sent, it
 * goes once, with its own Idempotency-Key. Everything runs on the page's one thread, so undo and
 * send cannot interleave: whichever runs first wins and the other sees it (undo answers false
 * once the decision is on its way).
 */
export class DecisionDelay {
  private readonly held = new Map<string, { decision: HeldDecision; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly send: (decision: HeldDecision) => void,
    private readonly changed: () => void,
    private readonly delayMs = UNDO_SECONDS * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Holds a decision; false when one for this item is held already (a second key press). */
  hold(decision: Omit<HeldDecision, 'sendAt'>): boolean {
    if (this.held.has(decision.id)) return false;
    const full = { ...decision, sendAt: this.now() + this.delayMs };
    const timer = setTimeout(() => this.release(decision.id), this.delayMs);
    this.held.set(decision.id, { decision: full, timer });
    this.changed();
    return true;
  }

  /** Drops a held decision; false when it is not held (never made, or already sent). */
  undo(id: string): boolean {
    const entry = this.held.get(id);
    if (!entry) return false;
    clearTimeout(entry.timer);
    this.held.delete(id);
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
    clearTimeout(entry.timer);
    this.held.delete(id);
    this.changed();
    this.send(entry.decision);
  }
}
