/**
 * A flooding key's refusal is held before it is sent (a tarpit). An account refused again within
 * the flood window (fair-queue.ts) gets its 429 with `Connection: close` after HOLD_MS, its body
 * unread: the socket waits on a timer, costing no CPU, while the flooder's loop waits for its
 * answer instead of reconnecting and being refused hundreds of times a second. Measured by
 * faults/flood.fault.ts: answered at once, 40 flooding loops cost the event loop enough to push
 * another user's photo upload to 4.4 times its idle time; held, 1.9 times.
 *
 * At most MAX_HELD refusals are held at once; beyond that one is answered at once, so a flooder
 * with thousands of connections cannot make the server keep thousands of sockets open.
 */
export const HOLD_MS = 1_000;
export const MAX_HELD = 128;

let held = 0;

/** `response` after HOLD_MS, or at once when MAX_HELD refusals are already held. */
export function holdRefusal(
  response: Response,
  holdMs = HOLD_MS,
  maxHeld = MAX_HELD,
): Response | Promise<Response> {
  if (held >= maxHeld) return response;
  held++;
  return new Promise((resolve) =>
    setTimeout(() => {
      held--;
      resolve(response);
    }, holdMs).unref(),
  );
}

/** Refusals being held now (for tests). */
export function heldRefusals(): number {
  return held;
}
