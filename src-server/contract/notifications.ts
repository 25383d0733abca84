import { NOTIFICATION_TYPES, type NotificationType } from './constants';
import { ERROR_MESSAGES, type ErrorCode } from './errors';
import { ruleSchema } from './rules';
import { FIELD_MESSAGES } from './schemas';

export const MAX_NOTIFICATION_TITLE = 100;
export const MAX_NOTIFICATION_MESSAGE = 1000;
export const MAX_PLAYER_ID = 200;

/**
 * POST /api/auth/send-notification, checked. `target: 'all'`, or the spec's payload with no
 * `playerId` (and no target), sends to every subscribed device; otherwise `playerId` (a user's
 * OneSignal id) is the one recipient.
 */
export type NotificationRequest = {
  notificationType: NotificationType;
  /** customMessage only: the admin's own texts (the other types have fixed texts) */
  title: string | null;
  message: string | null;
} & ({ target: 'all' } | { target: 'user'; playerId: string });

/**
 * The reply: what was sent, OneSignal's id of the notification when it gave one, whether it
 * went to the push service, and how many inbox messages were written (a customMessage: 1, to
 * everyone or to the user with that push id; 0 when no account has it).
 */
export interface NotificationSentDto {
  notificationType: NotificationType;
  target: 'all' | 'user';
  id: string | null;
  pushed: boolean;
  inbox: number;
}

export interface NotificationProblem {
  code: ErrorCode;
  field: string;
  message: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const problem = (code: ErrorCode, field: string, message: string = ERROR_MESSAGES[code]) => ({
  ok: false as const,
  problem: { code, field, message },
});

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * The dialog's rules, in the order they are reported: a known type; for customMessage a title
 * and a message; a player id unless sending to all. Shared by the server and the dialog.
 */
export function checkNotificationRequest(
  body: unknown,
): { ok: true; value: NotificationRequest } | { ok: false; problem: NotificationProblem } {
  const input = isRecord(body) ? body : {};
  const notificationType = NOTIFICATION_TYPES.find((t) => t === input.notificationType);
  if (!notificationType) return problem('notification_type_required', 'notificationType');
  for (const field of ['title', 'message', 'playerId', 'target'] as const) {
    const v = input[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      return problem('validation_error', field, FIELD_MESSAGES.invalidValue);
    }
  }
  let title: string | null = null;
  let message: string | null = null;
  if (notificationType === 'customMessage') {
    title = trimmed(input.title);
    message = trimmed(input.message);
    if (!title) return problem('notification_title_required', 'title');
    if (!message) return problem('notification_message_required', 'message');
    if (title.length > MAX_NOTIFICATION_TITLE)
      return problem('validation_error', 'title', FIELD_MESSAGES.tooLong);
    if (message.length > MAX_NOTIFICATION_MESSAGE) {
      return problem('validation_error', 'message', FIELD_MESSAGES.tooLong);
    }
  }
  const target = trimmed(input.target);
  if (target !== '' && target !== 'all' && target !== 'user') {
    return problem('validation_error', 'target', FIELD_MESSAGES.invalidValue);
  }
  const playerId = trimmed(input.playerId);
  // the spec's payload has no target: no player id there means everyone (the dialog has asked
  // its confirmation); an explicit target 'user' still needs one
  if (target === 'all' || (target === '' && !playerId))
    return { ok: true, value: { notificationType, title, message, target: 'all' } };
  if (!playerId) return problem('player_id_required', 'playerId');
  if (playerId.length > MAX_PLAYER_ID || !/^[\x21-\x7e]+$/.test(playerId)) {
    return problem('validation_error', 'playerId', FIELD_MESSAGES.invalidValue);
  }
  return { ok: true, value: { notificationType, title, message, target: 'user', playerId } };
}

/** The body of POST /api/auth/send-notification, read through the dialog's rules. */
export const notificationRequestSchema = ruleSchema(checkNotificationRequest);
