import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DecisionDelay, type HeldDecision } from './decision-delay';
import { quickApproveRequest } from './review-form';

const approve = (id: string) => ({
  id,
  title: `task ${id}`,
  request: quickApproveRequest(),
  key: `key-${id}`,
});

describe('a decision held for its undo seconds', () => {
  let sent: HeldDecision[];
  let delay: DecisionDelay;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    delay = new DecisionDelay(
      (d) => sent.push(d),
      () => {},
      5000,
    );
  });
  afterEach(() => vi.useRealTimers());

  it('sends nothing when undone within the seconds, and nothing later either', () => {
    expect(delay.hold(approve('a'))).toBe(true);
    vi.advanceTimersByTime(4999);
    expect(delay.undo('a')).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([]);
    expect(delay.list()).toEqual([]);
  });

  it('sends once when not undone, and an undo after that is refused', () => {
    delay.hold(approve('a'));
    vi.advanceTimersByTime(5000);
    expect(sent.map((d) => [d.id, d.key])).toEqual([['a', 'key-a']]);
    expect(delay.undo('a')).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(sent).toHaveLength(1);
  });

  it('lets the first of undo and send win when both come at the same instant', () => {
    // the undo click handled just before the timer's turn: nothing is sent
    delay.hold(approve('a'));
    vi.advanceTimersByTime(4999);
    delay.undo('a');
    vi.advanceTimersByTime(1);
    // the timer's turn first: the undo that follows in the same instant is refused
    delay.hold(approve('b'));
    vi.advanceTimersByTime(5000);
    const lateUndo = delay.undo('b');
    expect([sent.map((d) => d.id), lateUndo]).toEqual([['b'], false]);
  });

  it('holds one decision per item (a second `a` changes nothing) and flushes all when leaving, once', () => {
    expect(delay.hold(approve('a'))).toBe(true);
    expect(delay.hold({ ...approve('a'), key: 'other' })).toBe(false);
    delay.hold(approve('b'));
    expect(delay.list().map((d) => d.id)).toEqual(['b', 'a']);
    delay.flush();
    vi.advanceTimersByTime(60_000);
    delay.flush();
    expect(sent.map((d) => d.key).sort()).toEqual(['key-a', 'key-b']);
  });

  it('stops the clock while paused (the focus on the undo list) and gives each its time left after', () => {
    delay.hold(approve('a'));
    vi.advanceTimersByTime(3000);
    delay.pause();
    delay.hold(approve('b'));
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([]);
    const [b, a] = delay.list();
    expect([delay.leftOf(a!, Date.now()), delay.leftOf(b!, Date.now())]).toEqual([2000, 5000]);
    delay.resume();
    vi.advanceTimersByTime(1999);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent.map((d) => d.id)).toEqual(['a']);
    expect(delay.undo('b')).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sent.map((d) => d.id)).toEqual(['a']);
  });

  it('ends a pause when the last held decision goes (its list is gone from under the pointer)', () => {
    delay.hold(approve('a'));
    delay.pause();
    delay.undo('a');
    delay.hold(approve('b'));
    vi.advanceTimersByTime(5000);
    expect(sent.map((d) => d.id)).toEqual(['b']);
  });
});
