import { describe, expect, it } from 'vitest';
import {
  EMPTY_WITHDRAWAL_FILTERS,
  hasWithdrawalFilters,
  readSubmissionList,
  readUserList,
  readWithdrawalList,
  submissionListApiQuery,
  submissionListSearch,
  userListApiQuery,
  userListSearch,
  withdrawalListApiQuery,
  withdrawalListSearch,
} from './list-queries';

const params = (text: string) => new URLSearchParams(text);

describe('the user list query', () => {
  it('reads the search, the filter and the page from the URL', () => {
    expect(readUserList(params('q=%20ay%C5%9Fe%20&status=banned&page=3'))).toEqual({
      q: 'ayşe',
      status: 'banned',
      page: 3,
    });
  });

  it('falls back to all users on page 1 for unknown values', () => {
    expect(readUserList(params('status=vip&page=-2'))).toEqual({ q: '', status: 'all', page: 1 });
    expect(readUserList(params('page=1.5'))).toEqual({ q: '', status: 'all', page: 1 });
    expect(readUserList(params('page=abc'))).toEqual({ q: '', status: 'all', page: 1 });
  });

  it('reads the push filter', () => {
    expect(readUserList(params('status=push')).status).toBe('push');
  });

  it('leaves the defaults out of the URL', () => {
    expect(userListSearch({ q: '', status: 'all', page: 1 })).toBe('');
    expect(userListSearch({ q: ' ali ', status: 'admin', page: 2 })).toBe('?q=ali&status=admin&page=2');
  });

  it('asks the server for 10 a page, with the filter spelled out', () => {
    expect(userListApiQuery({ q: '', status: 'all', page: 1 })).toBe('?status=all&page=1&limit=10');
    expect(userListApiQuery({ q: 'a&b', status: 'push', page: 4 })).toBe(
      '?q=a%26b&status=push&page=4&limit=10',
    );
  });
});

describe('the submission list query', () => {
  it('defaults to pending', () => {
    expect(readSubmissionList(params(''))).toEqual({
      status: 'pending',
      q: '',
      task: '',
      user: '',
      flagged: false,
      page: 1,
    });
    expect(readSubmissionList(params('status=nope'))).toEqual({
      status: 'pending',
      q: '',
      task: '',
      user: '',
      flagged: false,
      page: 1,
    });
  });

  it('keeps all, approved and rejected', () => {
    expect(readSubmissionList(params('status=all')).status).toBe('all');
    expect(readSubmissionList(params('status=rejected&page=2'))).toEqual({
      status: 'rejected',
      q: '',
      task: '',
      user: '',
      flagged: false,
      page: 2,
    });
    expect(readSubmissionList(params('q=%20Ay%C5%9Fe%20'))).toEqual({
      status: 'pending',
      q: 'Ayşe',
      task: '',
      user: '',
      flagged: false,
      page: 1,
    });
  });

  it('reads one task and one worker by id, and ignores anything else there', () => {
    const id = '0123456789abcdef01234567';
    expect(readSubmissionList(params(`task=${id}&user=nope`))).toMatchObject({ task: id, user: '' });
    expect(submissionListSearch({ status: 'all', q: '', task: id, user: '', flagged: false, page: 1 })).toBe(
      `?status=all&task=${id}`,
    );
    expect(
      submissionListApiQuery({ status: 'pending', q: '', task: '', user: id, flagged: false, page: 1 }),
    ).toBe(`?status=pending&user=${id}&sort=oldest&page=1&limit=10`);
  });

  it('starts the waiting proofs oldest first and the decided ones newest first, and keeps a chosen order and page size', () => {
    expect(readSubmissionList(params('sort=reward&size=50'))).toMatchObject({ sort: 'reward', size: 50 });
    expect(readSubmissionList(params('sort=cheap&size=33'))).toMatchObject({
      sort: undefined,
      size: undefined,
    });
    const base = { q: '', task: '', user: '', flagged: false, page: 1 };
    expect(submissionListApiQuery({ ...base, status: 'pending' })).toBe(
      '?status=pending&sort=oldest&page=1&limit=10',
    );
    expect(submissionListApiQuery({ ...base, status: 'appeals' })).toBe(
      '?appeal=pending&sort=oldest&page=1&limit=10',
    );
    expect(submissionListApiQuery({ ...base, status: 'approved' })).toBe(
      '?status=approved&sort=newest&page=1&limit=10',
    );
    expect(submissionListApiQuery({ ...base, status: 'pending', sort: 'flagged', size: 100 })).toBe(
      '?status=pending&sort=flagged&page=1&limit=100',
    );
    expect(submissionListSearch({ ...base, status: 'pending', sort: 'oldest', size: 10 })).toBe('');
    expect(submissionListSearch({ ...base, status: 'pending', sort: 'newest', size: 25 })).toBe(
      '?sort=newest&size=25',
    );
    expect(submissionListSearch({ ...base, status: 'all', sort: 'newest' })).toBe('?status=all');
  });

  it('puts only the non-defaults in the URL', () => {
    expect(
      submissionListSearch({ status: 'pending', q: '', task: '', user: '', flagged: false, page: 1 }),
    ).toBe('');
    expect(
      submissionListSearch({ status: 'pending', q: 'ayşe', task: '', user: '', flagged: false, page: 1 }),
    ).toBe('?q=ay%C5%9Fe');
    expect(submissionListSearch({ status: 'all', q: '', task: '', user: '', flagged: false, page: 3 })).toBe(
      '?status=all&page=3',
    );
  });

  it('keeps the flagged filter in the URL and sends it to the server', () => {
    expect(readSubmissionList(params('flagged=true')).flagged).toBe(true);
    expect(readSubmissionList(params('flagged=1')).flagged).toBe(false);
    const state = { status: 'pending' as const, q: '', task: '', user: '', flagged: true, page: 1 };
    expect(submissionListSearch(state)).toBe('?flagged=true');
    expect(submissionListApiQuery(state)).toBe('?status=pending&flagged=true&sort=oldest&page=1&limit=10');
  });

  it('sends no status for all', () => {
    expect(
      submissionListApiQuery({ status: 'all', q: '', task: '', user: '', flagged: false, page: 1 }),
    ).toBe('?sort=newest&page=1&limit=10');
    expect(
      submissionListApiQuery({ status: 'all', q: 'bora', task: '', user: '', flagged: false, page: 1 }),
    ).toBe('?q=bora&sort=newest&page=1&limit=10');
    expect(
      submissionListApiQuery({ status: 'pending', q: '', task: '', user: '', flagged: false, page: 2 }),
    ).toBe('?status=pending&sort=oldest&page=2&limit=10');
  });
});

describe('the withdrawal list query', () => {
  it('reads every filter', () => {
    expect(readWithdrawalList(params('status=pending&from=2026-01-01&to=2026-01-31&q=TR12&page=2'))).toEqual({
      status: 'pending',
      from: '2026-01-01',
      to: '2026-01-31',
      q: 'TR12',
      flagged: false,
      page: 2,
    });
  });

  it('drops malformed dates and statuses', () => {
    expect(readWithdrawalList(params('status=paid&from=01.01.2026&to=yesterday'))).toEqual(
      EMPTY_WITHDRAWAL_FILTERS,
    );
  });

  it('writes the URL and the API query', () => {
    const state = {
      status: 'rejected' as const,
      from: '2026-02-01',
      to: '',
      q: ' Ali ',
      flagged: false,
      page: 1,
    };
    expect(withdrawalListSearch(state)).toBe('?status=rejected&from=2026-02-01&q=Ali');
    expect(withdrawalListApiQuery(state)).toBe('?status=rejected&from=2026-02-01&q=Ali&page=1&limit=10');
    expect(withdrawalListApiQuery(EMPTY_WITHDRAWAL_FILTERS)).toBe('?page=1&limit=10');
  });

  it('reads, writes and sends the flagged filter', () => {
    expect(readWithdrawalList(params('flagged=true&status=pending'))).toEqual({
      ...EMPTY_WITHDRAWAL_FILTERS,
      status: 'pending',
      flagged: true,
    });
    const state = { ...EMPTY_WITHDRAWAL_FILTERS, flagged: true };
    expect(withdrawalListSearch(state)).toBe('?flagged=true');
    expect(withdrawalListApiQuery(state)).toBe('?flagged=true&page=1&limit=10');
    expect(hasWithdrawalFilters(state)).toBe(true);
  });

  it('knows when a reset has something to clear', () => {
    expect(hasWithdrawalFilters(EMPTY_WITHDRAWAL_FILTERS)).toBe(false);
    expect(hasWithdrawalFilters({ ...EMPTY_WITHDRAWAL_FILTERS, q: '  ' })).toBe(false);
    expect(hasWithdrawalFilters({ ...EMPTY_WITHDRAWAL_FILTERS, to: '2026-03-01' })).toBe(true);
    expect(hasWithdrawalFilters({ ...EMPTY_WITHDRAWAL_FILTERS, status: 'approved' })).toBe(true);
  });
});
