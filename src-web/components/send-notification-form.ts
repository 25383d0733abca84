import type { NotificationType } from '@contract/constants';
import { checkNotificationRequest } from '@contract/notifications';

/** The send-notification dialog's inputs. */
export interface NotificationFormValues {
  notificationType: NotificationType | '';
  title: string;
  message: string;
  target: 'user' | 'all';
  playerId: string;
}

export const initialNotificationValues = (playerId = ''): NotificationFormValues => ({
  notificationType: '',
  title: '',
  message: '',
  target: 'user',
  playerId,
});

/** The body of POST /api/auth/send-notification: title and message only for a custom message. */
export function notificationBody(v: NotificationFormValues): Record<string, string> {
  const body: Record<string, string> = { notificationType: v.notificationType, target: v.target };
  if (v.notificationType === 'customMessage') {
    body.title = v.title;
    body.message = v.message;
  }
  if (v.target === 'user') body.playerId = v.playerId;
  return body;
}

export type NotificationFormCheck =
  | { ok: true; body: Record<string, string> }
  | { ok: false; field: string; code: string; message: string };

/**
 * The dialog's rules, with the server's own function: a type, then for a
 * custom message a title and a message, then a player id unless sending to all.
 */
export function checkNotificationForm(v: NotificationFormValues): NotificationFormCheck {
  const body = notificationBody(v);
  const checked = checkNotificationRequest(body);
  if (checked.ok) return { ok: true, body };
  return { ok: false, ...checked.problem };
}
