import { describe, expect, it } from 'vitest';
import { checkNotificationForm, initialNotificationValues, notificationBody } from './send-notification-form';

const custom = {
  ...initialNotificationValues('player-1'),
  notificationType: 'customMessage' as const,
  title: 'Yeni görevler',
  message: 'Bugün 5 yeni görev eklendi.',
};

describe('the send-notification form', () => {
  it('starts empty, aimed at one user, with the given player id', () => {
    expect(initialNotificationValues('abc')).toMatchObject({
      notificationType: '',
      target: 'user',
      playerId: 'abc',
    });
  });

  it('checks the type, then the title and message of a custom message, then the player id', () => {
    expect(checkNotificationForm(initialNotificationValues())).toMatchObject({
      ok: false,
      field: 'notificationType',
      code: 'notification_type_required',
    });
    expect(checkNotificationForm({ ...custom, title: ' ' })).toMatchObject({
      field: 'title',
      code: 'notification_title_required',
    });
    expect(checkNotificationForm({ ...custom, message: '' })).toMatchObject({
      field: 'message',
      code: 'notification_message_required',
    });
    expect(checkNotificationForm({ ...custom, playerId: '' })).toMatchObject({
      field: 'playerId',
      code: 'player_id_required',
    });
  });

  it('needs no player id when sending to all', () => {
    expect(checkNotificationForm({ ...custom, playerId: '', target: 'all' })).toEqual({
      ok: true,
      body: {
        notificationType: 'customMessage',
        target: 'all',
        title: custom.title,
        message: custom.message,
      },
    });
  });

  it('sends no title or message with a fixed-text type', () => {
    expect(notificationBody({ ...custom, notificationType: 'newTask' })).toEqual({
      notificationType: 'newTask',
      target: 'user',
      playerId: 'player-1',
    });
  });
});
