import type { UserTaskDto } from '@contract/tasks';
import { describe, expect, it } from 'vitest';
import { taskPageState } from './task-state';

function record(status: UserTaskDto['status'], review?: 'pending' | 'approved' | 'rejected'): UserTaskDto {
  return {
    _id: 'r1',
    task: { _id: 't1', title: 'T', reward: 5, status: 'active', deadline: null },
    status,
    automaticComment: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    completedAt: null,
    expiresAt: null,
    endReason: null,
    submission: review
      ? {
          _id: 's1',
          status: review,
          description: null,
          feedback: null,
          feedbackCode: null,
          rejectionReason: null,
          reward: 5,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        }
      : null,
  };
}

describe('the task page state', () => {
  it.each([
    ['no record', null, 'available'],
    ['a record in progress', record('in_progress'), 'in_progress'],
    [
      'a restarted record whose latest submission was rejected',
      record('in_progress', 'rejected'),
      'in_progress',
    ],
    ['a completed record with a pending submission', record('completed', 'pending'), 'completed'],
    ['a completed record without a submission', record('completed'), 'completed'],
    ['an approved submission', record('completed', 'approved'), 'approved'],
    ['a rejected submission', record('completed', 'rejected'), 'rejected'],
  ] as const)('gives %s as %s', (_label, input, expected) => {
    expect(taskPageState(input)).toBe(expected);
  });
});

describe('a record with a time limit', () => {
  const withExpiry = (expiresAt: string) => ({ ...record('in_progress'), expiresAt });
  it('is in progress until its time and expired from it, by the page clock or the server', () => {
    const at = Date.parse('2026-01-01T01:00:00.000Z');
    expect(taskPageState(withExpiry('2026-01-01T01:00:00.000Z'), at - 1)).toBe('in_progress');
    expect(taskPageState(withExpiry('2026-01-01T01:00:00.000Z'), at)).toBe('expired');
    expect(taskPageState(record('expired'))).toBe('expired');
    expect(taskPageState({ ...record('expired'), endReason: 'task_closed' })).toBe('closed');
  });
});
