import { describe, expect, it } from 'vitest';
import { auditSearch, isReversed, readAuditList } from './audit-query';

describe('the audit screen’s address', () => {
  it('reads known filters and drops what it does not know', () => {
    const state = readAuditList(
      new URLSearchParams(
        'page=3&action=user.balance&targetType=user&targetId=0123456789abcdef01234567&actor=x&from=2026-11-01&to=bad',
      ),
    );
    expect(state).toEqual({
      page: 3,
      actor: '',
      action: 'user.balance',
      targetType: 'user',
      targetId: '0123456789abcdef01234567',
      from: '2026-11-01',
      to: '',
    });
    expect(readAuditList(new URLSearchParams('page=-2&action=drop.tables')).action).toBe('');
  });

  it('writes only what is set, and round-trips', () => {
    const state = readAuditList(new URLSearchParams('action=task.create&from=2026-11-01'));
    expect(auditSearch(state)).toBe('action=task.create&from=2026-11-01');
    expect(readAuditList(new URLSearchParams(auditSearch({ ...state, page: 2 })))).toEqual({
      ...state,
      page: 2,
    });
  });

  it('knows a reversed range', () => {
    expect(isReversed({ from: '2026-11-05', to: '2026-11-01' })).toBe(true);
    expect(isReversed({ from: '2026-11-01', to: '' })).toBe(false);
  });
});
