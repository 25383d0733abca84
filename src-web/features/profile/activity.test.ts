import type { UserTaskDto, UserTaskSubmissionDto } from '@contract/tasks';
import { describe, expect, it } from 'vitest';
import { recentActivities } from './activity';

let n = 0;
function record(
  status: UserTaskDto['status'],
  submission: Partial<UserTaskSubmissionDto> | null,
  startedAt = '2026-03-01T10:00:00.000Z',
): UserTaskDto {
  n += 1;
  return {
    _id: `ut${n}`,
    task: { _id: `t${n}`, title: `Task ${n}`, reward: 10, status: 'active', deadline: null },
    status,
    automaticComment: null,
    startedAt,
    completedAt: null,
    expiresAt: null,
    endReason: null,
    submission: submission && {
      _id: `s${n}`,
      status: 'pending',
      description: null,
      feedback: null,
      feedbackCode: null,
      rejectionReason: null,
      reward: 10,
      createdAt: startedAt,
      updatedAt: startedAt,
      appeal: null,
      appealable: false,
      ...submission,
    },
  };
}

describe('the recent activities', () => {
  it('turns approved, rejected and started tasks into events, newest first', () => {
    const done = record('completed', { status: 'approved', reward: 12.5, updatedAt: '2026-03-05T00:00:00Z' });
    const rejected = record('completed', { status: 'rejected', updatedAt: '2026-03-04T00:00:00Z' });
    const started = record('in_progress', null, '2026-03-03T00:00:00Z');
    const waiting = record('completed', { status: 'pending', updatedAt: '2026-03-09T00:00:00Z' });
    const events = recentActivities([started, waiting, rejected, done], 5);
    expect(events.map((e) => e.type)).toEqual(['task_completed', 'task_rejected', 'task_started']);
    expect(events[0]).toMatchObject({ amount: 12.5, taskId: done.task._id, title: done.task.title });
    expect(events[2]).toMatchObject({ taskId: started.task._id, amount: null });
    expect(events.map((e) => e.offer.action)).toEqual(['none', 'restart', 'finish']);
  });

  it('offers no restart for a rejection under appeal, and nothing to a suspended account', () => {
    const appealed = record('completed', { status: 'rejected', appeal: 'pending' });
    expect(recentActivities([appealed], 5)[0].offer).toMatchObject({ state: 'appealed', action: 'none' });
    const rejected = record('completed', { status: 'rejected' });
    expect(recentActivities([rejected], 5, { suspended: true })[0].offer).toMatchObject({
      state: 'suspended',
      action: 'none',
    });
  });

  it('keeps only the latest five', () => {
    const records = Array.from({ length: 8 }, (_, i) =>
      record('in_progress', null, `2026-03-0${i + 1}T00:00:00.000Z`),
    );
    const events = recentActivities(records, 5);
    expect(events).toHaveLength(5);
    expect(events[0].date).toBe('2026-03-08T00:00:00.000Z');
    expect(events[4].date).toBe('2026-03-04T00:00:00.000Z');
  });
});
