import type { FlagDto } from '@contract/fraud';
import { describe, expect, it } from 'vitest';
import { openFlags, replaceFlag, sortFlags } from './flags-api';

const flag = (id: string, over: Partial<FlagDto> = {}): FlagDto => ({
  _id: id,
  kind: 'duplicate_proof',
  itemType: 'submission',
  itemId: 's1',
  message: 'The screenshot matches 1 earlier proof',
  messages: { en: 'The screenshot matches 1 earlier proof', tr: 'Ekran görüntüsü 1 kanıtla eşleşiyor' },
  related: [],
  dismissed: false,
  dismissedAt: null,
  dismissedBy: null,
  dismissNote: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  similarity: null,
  ...over,
});

const dismissed = (id: string) =>
  flag(id, {
    dismissed: true,
    dismissedAt: '2026-11-25T11:00:00.000Z',
    dismissedBy: { _id: 'a1', name: 'Admin' },
    dismissNote: 'Aynı aile',
  });

describe('the flags of an item', () => {
  it('counts only the open ones', () => {
    expect(openFlags(undefined)).toEqual([]);
    expect(openFlags([flag('f1'), dismissed('f2')]).map((f) => f._id)).toEqual(['f1']);
  });

  it('lists open flags first, a duplicate before a too-fast proof, then the oldest', () => {
    const list = [
      dismissed('d'),
      flag('fast', { kind: 'too_fast' }),
      flag('late', { createdAt: '2026-11-25T12:00:00.000Z' }),
      flag('early'),
    ];
    expect(sortFlags(list).map((f) => f._id)).toEqual(['early', 'late', 'fast', 'd']);
  });
});

describe('a dismissed flag put in the cached replies', () => {
  it('replaces it in a page of items and leaves the other items as they were', () => {
    const other = { _id: 's2', flags: [flag('f9')] };
    const page = { items: [{ _id: 's1', flags: [flag('f1'), flag('f2')] }, other], total: 2 };
    const next = replaceFlag(page, dismissed('f2'));
    expect(next.items[0]?.flags.map((f) => f.dismissed)).toEqual([false, true]);
    expect(next.items[1]).toBe(other);
    expect(next.total).toBe(2);
    expect(page.items[0]?.flags[1]?.dismissed).toBe(false);
  });

  it('replaces it in a list, in one item and in a linked-accounts reply', () => {
    expect(replaceFlag([{ _id: 's1', flags: [flag('f1')] }], dismissed('f1'))[0]?.flags[0]?.dismissed).toBe(
      true,
    );
    expect(replaceFlag({ _id: 's1', flags: [flag('f1')] }, dismissed('f1')).flags[0]?.dismissNote).toBe(
      'Aynı aile',
    );
    const linked = { accounts: [{ _id: 'u2' }], flags: [flag('f1', { itemType: 'user' })] };
    expect(replaceFlag(linked, dismissed('f1')).flags[0]?.dismissed).toBe(true);
  });

  it('returns a reply without that flag unchanged, the same object', () => {
    const page = { items: [{ _id: 's1', flags: [flag('f1')] }], total: 1 };
    expect(replaceFlag(page, dismissed('other'))).toBe(page);
    expect(replaceFlag(undefined, dismissed('f1'))).toBeUndefined();
    const task = { _id: 't1', title: 'Görev' };
    expect(replaceFlag(task, dismissed('f1'))).toBe(task);
  });
});
