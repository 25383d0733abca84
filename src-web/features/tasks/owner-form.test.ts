import { TASK_FIELD_MESSAGES, type TaskDto } from '@contract/tasks';
import { describe, expect, it } from 'vitest';
import {
  checkOwnerForm,
  firstDeadlineDay,
  initialValues,
  type OwnerFormValues,
  taskFieldKey,
} from './owner-form';

const NOW = new Date('2026-03-10T09:00:00.000Z');

const task: TaskDto = {
  _id: 't1',
  title: 'Yorum yap',
  description: 'Açıklama',
  category: 'review',
  reward: 12.5,
  deadline: '2026-04-01T20:59:59.999Z',
  difficulty: 'easy',
  status: 'inactive',
  maxCompletions: 100,
  requiredProof: 'screenshot',
  taskLink: null,
  isFeatured: false,
  steps: ['Bir', 'İki'],
  requirements: [],
  estimatedTime: null,
  timeLimitMinutes: 60,
  rating: 4.5,
  totalCompleted: 0,
  remainingSlots: 100,
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
  createdBy: 'Admin',
  isOwner: true,
  commentStats: { total: 0, used: 0, remaining: 0 },
  automaticComments: ['a', 'b'],
};

const valid = (patch: Partial<OwnerFormValues> = {}): OwnerFormValues => ({
  ...initialValues(task),
  status: 'active',
  ...patch,
});

describe('the owner edit form', () => {
  it('starts from the task, with its deadline as a Turkish calendar day', () => {
    const v = initialValues(task);
    expect(v.deadline).toBe('2026-04-01');
    expect(v.reward).toBe('12.5');
    expect(v.steps).toBe('Bir\nİki');
    expect(v.automaticComments).toBe('a\nb');
    expect(v.status).toBe('');
  });

  it('sends numbers as numbers and lists as lines', () => {
    const result = checkOwnerForm(valid({ estimatedTime: '15' }), NOW);
    expect(result).toHaveProperty('body');
    if (!('body' in result)) return;
    expect(result.body).toMatchObject({
      reward: 12.5,
      maxCompletions: 100,
      estimatedTime: 15,
      steps: ['Bir', 'İki'],
    });
  });

  it('requires every field the owner rules name', () => {
    const result = checkOwnerForm(
      valid({ title: ' ', description: '', reward: '', deadline: '', status: '', category: '' }),
      NOW,
    );
    expect(result).toEqual({
      errors: expect.objectContaining({
        title: TASK_FIELD_MESSAGES.titleRequired,
        description: TASK_FIELD_MESSAGES.descriptionRequired,
        reward: TASK_FIELD_MESSAGES.rewardRequired,
        deadline: TASK_FIELD_MESSAGES.deadlineRequired,
        status: TASK_FIELD_MESSAGES.fieldRequired,
        category: TASK_FIELD_MESSAGES.fieldRequired,
      }),
    });
  });

  it('refuses a deadline of today or before, and accepts tomorrow', () => {
    expect(checkOwnerForm(valid({ deadline: '2026-03-10' }), NOW)).toEqual({
      errors: { deadline: TASK_FIELD_MESSAGES.deadlinePast },
    });
    expect(checkOwnerForm(valid({ deadline: firstDeadlineDay(NOW) }), NOW)).toHaveProperty('body');
    expect(firstDeadlineDay(NOW)).toBe('2026-03-11');
  });

  it('refuses a reward below 0.01 or with three decimals', () => {
    for (const reward of ['0', '1.234', 'abc']) {
      expect(checkOwnerForm(valid({ reward }), NOW)).toEqual({
        errors: { reward: TASK_FIELD_MESSAGES.rewardInvalid },
      });
    }
  });

  it('finds the translation key of a field message', () => {
    expect(taskFieldKey(TASK_FIELD_MESSAGES.deadlinePast)).toBe('deadlinePast');
    expect(taskFieldKey('something else')).toBeUndefined();
  });
});
