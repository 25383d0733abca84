import type { TaskDto } from '@contract/tasks';
import { describe, expect, it } from 'vitest';
import {
  checkTaskForm,
  commentsOf,
  minSecondsOf,
  NEW_TASK_VALUES,
  taskMessageKey,
  valuesFromTask,
} from './task-form-values';

const filled = {
  ...NEW_TASK_VALUES,
  title: 'Uygulamamıza yorum yaz',
  description: 'Mağazada beş yıldız verin.',
  reward: '12.5',
};

const task = {
  _id: 't1',
  title: 'Eski başlık',
  description: 'Açıklama',
  category: 'review',
  reward: 7.25,
  deadline: '2030-05-31T20:59:59.999Z',
  difficulty: 'medium',
  status: 'inactive',
  maxCompletions: 50,
  requiredProof: 'link',
  taskLink: null,
  automaticComments: ['bir', 'iki'],
  usedComments: ['bir'],
} as const satisfies Partial<TaskDto>;

function keysOf(check: ReturnType<typeof checkTaskForm>): Record<string, string | undefined> {
  if (check.ok) return {};
  return Object.fromEntries(Object.entries(check.errors).map(([f, m]) => [f, taskMessageKey(m)]));
}

describe('the admin task form', () => {
  it('checks title, description and reward in that order, then the link', () => {
    const empty = checkTaskForm({ ...NEW_TASK_VALUES, taskLink: 'ftp://x' });
    expect(Object.entries(keysOf(empty)).slice(0, 4)).toEqual([
      ['title', 'titleRequired'],
      ['description', 'descriptionRequired'],
      ['reward', 'rewardRequired'],
      ['taskLink', 'invalidUrl'],
    ]);
  });

  it('refuses a reward below 0.01 or with three decimals, and max completions below 1', () => {
    expect(keysOf(checkTaskForm({ ...filled, reward: '0' }))).toEqual({ reward: 'rewardInvalid' });
    expect(keysOf(checkTaskForm({ ...filled, reward: '1.005' }))).toEqual({ reward: 'rewardInvalid' });
    expect(keysOf(checkTaskForm({ ...filled, reward: 'abc' }))).toEqual({ reward: 'rewardInvalid' });
    expect(keysOf(checkTaskForm({ ...filled, maxCompletions: '0' }))).toEqual({
      maxCompletions: 'maxCompletionsInvalid',
    });
  });

  it('sends numbers as numbers and omits an empty deadline and link for a new task', () => {
    const check = checkTaskForm({ ...filled, reward: '12,5' });
    expect(check).toMatchObject({ ok: true, removed: 0 });
    if (!check.ok) return;
    expect(check.body).toMatchObject({ reward: 12.5, maxCompletions: 1000, category: 'social_media' });
    expect('deadline' in check.body).toBe(false);
    expect('taskLink' in check.body).toBe(false);
  });

  it('drops blank and duplicate comment lines and counts them, but not a final Enter', () => {
    expect(commentsOf('')).toEqual({ comments: [], removed: 0 });
    expect(commentsOf('a\n\n a \nb\na\n')).toEqual({ comments: ['a', 'b'], removed: 3 });
    const check = checkTaskForm({ ...filled, automaticComments: 'x\nx\n\ny' });
    expect(check).toMatchObject({ ok: true, removed: 2, body: { automaticComments: ['x', 'y'] } });
  });

  it('sends the steps and requirements line by line and the estimated time as a number', () => {
    const check = checkTaskForm({
      ...filled,
      steps: ' Uygulamayı aç \n\nTakip et\n',
      requirements: 'Instagram hesabı',
      estimatedTime: '5',
    });
    expect(check).toMatchObject({
      ok: true,
      body: { steps: ['Uygulamayı aç', 'Takip et'], requirements: ['Instagram hesabı'], estimatedTime: 5 },
    });
    const cleared = checkTaskForm({ ...filled, estimatedTime: '' }, task as unknown as TaskDto);
    expect(cleared).toMatchObject({ ok: true, body: { estimatedTime: null, steps: [] } });
  });

  it('fills the form from a task and sends cleared fields and used comments on edit', () => {
    const values = valuesFromTask({ ...task } as unknown as TaskDto);
    expect(values).toMatchObject({ reward: '7.25', deadline: '2030-05-31', automaticComments: 'bir\niki' });
    const check = checkTaskForm({ ...values, deadline: '' }, task as unknown as TaskDto);
    expect(check).toMatchObject({
      ok: true,
      body: { deadline: '', taskLink: '', usedComments: ['bir'], status: 'inactive' },
    });
  });

  it('sends the minimum seconds as a number, and an emptied one as null on edit (derived again)', () => {
    expect(checkTaskForm({ ...filled, minSeconds: '90' })).toMatchObject({
      ok: true,
      body: { minSeconds: 90 },
    });
    const fresh = checkTaskForm(filled);
    expect(fresh.ok && fresh.body.minSeconds).toBeUndefined();
    const cleared = checkTaskForm({ ...filled, minSeconds: '' }, task as unknown as TaskDto);
    expect(cleared).toMatchObject({ ok: true, body: { minSeconds: null } });
    expect(valuesFromTask({ ...task, minSeconds: 45 } as unknown as TaskDto).minSeconds).toBe('45');
    expect(valuesFromTask({ ...task, minSeconds: null } as unknown as TaskDto).minSeconds).toBe('');
  });

  it('refuses minimum seconds that are not whole seconds from 0 to a day', () => {
    for (const minSeconds of ['-1', '1.5', '86401', 'abc']) {
      expect(keysOf(checkTaskForm({ ...filled, minSeconds }))).toEqual({ minSeconds: 'invalidValue' });
    }
    expect(checkTaskForm({ ...filled, minSeconds: '0' }).ok).toBe(true);
  });

  it('tells the minimum the check will use: the typed one, or a quarter of the estimate, at least 10 s', () => {
    expect(minSecondsOf({ minSeconds: '75', estimatedTime: '8' })).toBe(75);
    expect(minSecondsOf({ minSeconds: '', estimatedTime: '8' })).toBe(120);
    expect(minSecondsOf({ minSeconds: '', estimatedTime: '' })).toBe(10);
    expect(minSecondsOf({ minSeconds: ' ', estimatedTime: '0' })).toBe(10);
    expect(minSecondsOf({ minSeconds: 'x', estimatedTime: '8' })).toBeNull();
  });
});
