import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { resources } from '../../locales';
import { actionError } from './action-error';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ resources, lng: 'en', defaultNS: 'common', interpolation: { escapeValue: false } });
});

describe('actionError', () => {
  it('prefers the server reason, translated by its code', () => {
    const err = new ApiError(404, 'task_not_found', 'Task not found');
    expect(actionError(i18n.t, err, 'admin:tasks.taskDeleteError')).toBe('Task not found');
  });

  it('keeps the server text when the code has no translation', () => {
    const err = new ApiError(409, 'some_new_code', 'Something specific happened');
    expect(actionError(i18n.t, err, 'admin:tasks.taskDeleteError')).toBe('Something specific happened');
  });

  it("uses the screen's own message for generic failures and server errors", () => {
    const fallback = i18n.t('admin:tasks.taskDeleteError');
    expect(actionError(i18n.t, new ApiError(500, 'internal', 'boom'), 'admin:tasks.taskDeleteError')).toBe(
      fallback,
    );
    expect(actionError(i18n.t, new Error('x'), 'admin:tasks.taskDeleteError')).toBe(fallback);
  });
});
