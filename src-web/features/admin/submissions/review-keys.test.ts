import type { AdminSubmissionDto } from '@contract/admin';
import { describe, expect, it } from 'vitest';
import { nextReviewable, reviewCommand, stepFrom } from './review-keys';

const press = (
  key: string,
  target: EventTarget | null = null,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {},
) => reviewCommand({ key, target, ctrlKey: false, metaKey: false, altKey: false, ...mods });

/** A focused element as reviewCommand reads it: its tag name, type and whether it is editable. */
const element = (tagName: string, extra: Record<string, unknown> = {}) =>
  ({ tagName, ...extra }) as unknown as EventTarget;

describe('reviewCommand', () => {
  it('maps the queue keys', () => {
    expect(['j', 'ArrowDown', 'k', 'ArrowUp', 'a', 'r', 'Enter', ' ', 'x', '?'].map((k) => press(k))).toEqual(
      ['next', 'next', 'previous', 'previous', 'approve', 'reject', 'open', 'open', 'select', 'help'],
    );
  });

  it('leaves other keys and shortcuts with Ctrl, Alt or Cmd alone', () => {
    expect(press('b')).toBeNull();
    expect(press('A')).toBeNull();
    expect(press('a', null, { ctrlKey: true })).toBeNull();
    expect(press('r', null, { metaKey: true })).toBeNull();
    expect(press('j', null, { altKey: true })).toBeNull();
  });

  it('gives typing in a field or a picker to the field', () => {
    expect(press('a', element('INPUT', { type: 'search' }))).toBeNull();
    expect(press('j', element('SELECT'))).toBeNull();
    expect(press('r', element('TEXTAREA'))).toBeNull();
    expect(press('a', element('DIV', { isContentEditable: true }))).toBeNull();
  });

  it('leaves Enter and space to a focused button, link or tick box, but not the other keys', () => {
    expect(press('Enter', element('BUTTON'))).toBeNull();
    expect(press(' ', element('A'))).toBeNull();
    expect(press(' ', element('INPUT', { type: 'checkbox' }))).toBeNull();
    expect(press('a', element('BUTTON'))).toBe('approve');
    expect(press('j', element('INPUT', { type: 'checkbox' }))).toBe('next');
    expect(press('Enter', element('TR'))).toBe('open');
  });
});

const item = (id: string, status: 'pending' | 'approved', userId = 'u1') =>
  ({ _id: id, status, user: { _id: userId, name: 'n', email: '' } }) as unknown as AdminSubmissionDto;

describe('nextReviewable', () => {
  const items = [
    item('a', 'pending'),
    item('b', 'approved'),
    item('c', 'pending', 'me'),
    item('d', 'pending'),
  ];
  const reviewable = (s: AdminSubmissionDto) => s.status === 'pending' && s.user._id !== 'me';

  it('skips what cannot be reviewed (decided, or the admin’s own)', () => {
    expect(nextReviewable(items, 'a', reviewable)).toBe('d');
  });

  it('is null after the last one of the page, and for an id not on it', () => {
    expect(nextReviewable(items, 'd', reviewable)).toBeNull();
    expect(nextReviewable(items, 'zz', reviewable)).toBe('a');
  });
});

describe('stepFrom', () => {
  const items = [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }];
  it('moves one row and stops at both ends', () => {
    expect(stepFrom(items, 'a', 1)).toBe('b');
    expect(stepFrom(items, 'c', 1)).toBe('c');
    expect(stepFrom(items, 'a', -1)).toBe('a');
  });
  it('starts at the first row from nowhere, and is null on an empty page', () => {
    expect(stepFrom(items, null, 1)).toBe('a');
    expect(stepFrom([], 'a', 1)).toBeNull();
  });
});
