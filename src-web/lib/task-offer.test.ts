import type { UserTaskDto, UserTaskSubmissionDto } from '@contract/tasks';
import { describe, expect, it } from 'vitest';
import { sectionCounts, sectionOf, taskOffer } from './task-offer';

function record(
  status: UserTaskDto['status'],
  submission: Partial<UserTaskSubmissionDto> | null = null,
  extra: Partial<UserTaskDto> = {},
): UserTaskDto {
  return {
    _id: 'r1',
    task: { _id: 't1', title: 'T', reward: 5, status: 'active', deadline: null },
    status,
    automaticComment: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    completedAt: null,
    expiresAt: null,
    endReason: status === 'expired' ? 'time' : null,
    submission: submission && {
      _id: 's1',
      status: 'pending',
      description: null,
      feedback: null,
      feedbackCode: null,
      rejectionReason: null,
      reward: 5,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      appeal: null,
      appealable: false,
      ...submission,
    },
    ...extra,
  };
}

const NOW = Date.parse('2026-01-01T00:30:00.000Z');

describe('the one offer of a task to its worker', () => {
  it.each([
    ['no record', null, 'available', 'start'],
    ['a record in progress', record('in_progress'), 'in_progress', 'finish'],
    ['a restarted rejection', record('in_progress', { status: 'rejected' }), 'in_progress', 'finish'],
    ['a proof waiting', record('completed', { status: 'pending' }), 'waiting', 'none'],
    ['an approved proof', record('completed', { status: 'approved' }), 'approved', 'none'],
    ['a rejected proof', record('completed', { status: 'rejected' }), 'rejected', 'restart'],
    [
      'a rejection under appeal',
      record('completed', { status: 'rejected', appeal: 'pending' }),
      'appealed',
      'none',
    ],
    [
      'a rejection whose appeal was upheld',
      record('completed', { status: 'rejected', appeal: 'upheld' }),
      'rejected',
      'restart',
    ],
    ['a record whose time ran out', record('expired'), 'expired', 'start'],
    [
      'a record whose task was closed',
      record('expired', null, { endReason: 'task_closed' }),
      'closed',
      'none',
    ],
    [
      'a record whose countdown reached zero on the page',
      record('in_progress', null, { expiresAt: '2026-01-01T00:29:59.000Z' }),
      'expired',
      'start',
    ],
  ] as const)('%s: %s, %s', (_label, r, state, action) => {
    expect(taskOffer(r, { now: NOW })).toMatchObject({ state, action });
  });

  it('offers the appeal only beside a restart the server would allow', () => {
    expect(taskOffer(record('completed', { status: 'rejected', appealable: true })).appealable).toBe(true);
    expect(
      taskOffer(record('completed', { status: 'rejected', appealable: true }), { suspended: true })
        .appealable,
    ).toBe(false);
  });

  it.each([
    [null, 'suspended'],
    [record('in_progress'), 'suspended'],
    [record('completed', { status: 'rejected' }), 'suspended'],
    [record('expired'), 'suspended'],
    [record('completed', { status: 'pending' }), 'waiting'],
    [record('completed', { status: 'approved' }), 'approved'],
    [record('completed', { status: 'rejected', appeal: 'pending' }), 'appealed'],
  ])('a suspended account may act on nothing (%#: %s)', (r, state) => {
    expect(taskOffer(r, { suspended: true, now: NOW })).toMatchObject({ state, action: 'none' });
  });

  it('puts each record in one section of my tasks and counts them', () => {
    const records = [
      record('in_progress'),
      record('completed', { status: 'pending' }),
      record('completed', { status: 'rejected', appeal: 'pending' }),
      record('completed', { status: 'rejected' }),
      record('completed', { status: 'approved' }),
      record('expired'),
    ];
    expect(records.map((r) => sectionOf(r, NOW))).toEqual([
      'in_progress',
      'waiting',
      'appealed',
      'rejected',
      'approved',
      'ended',
    ]);
    expect(sectionCounts(records, NOW)).toEqual({
      in_progress: 1,
      waiting: 1,
      appealed: 1,
      rejected: 1,
      approved: 1,
      ended: 1,
    });
  });
});
