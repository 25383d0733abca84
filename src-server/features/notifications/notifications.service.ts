import type { NotificationType } from '../../contract/constants';
import type { NotificationRequest, NotificationSentDto } from '../../contract/notifications';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { addMessage, userByPushId } from './inbox.repository';
import { NOTIFICATION_TEXTS } from './notification-texts';
import { pushIdOf } from './notifications.repository';
import { PushError, type PushMessage } from './push';

type AutoType = keyof typeof NOTIFICATION_TEXTS;

function fixedMessage(type: AutoType, target: PushMessage['target']): PushMessage {
  return { type, target, ...NOTIFICATION_TEXTS[type] };
}

/**
 * POST /api/auth/send-notification: the admin's dialog. A customMessage also lands in the
 * in-app inbox (of the user whose push id it names, or of everyone), written once the push
 * service took it, or at once when push is not configured: the inbox works without OneSignal.
 * Unconfigured, a fixed type is a 409 push_not_configured (it has nowhere to go); a refusing or
 * silent push service a 424 push_failed with nothing written (the admin sends again): a 5xx
 * means a bug of our own, and another service's failure is not one.
 */
export async function sendNotification(
  deps: Pick<AppDeps, 'push' | 'db' | 'clock'>,
  actorId: string,
  request: NotificationRequest,
): Promise<NotificationSentDto> {
  const target = request.target === 'all' ? 'all' : { playerId: request.playerId };
  const custom = request.notificationType === 'customMessage';
  const message: PushMessage = custom
    ? {
        type: 'customMessage',
        target,
        headings: { en: request.title ?? '', tr: request.title ?? '' },
        contents: { en: request.message ?? '', tr: request.message ?? '' },
      }
    : fixedMessage(request.notificationType as AutoType, target);
  let id: string | null = null;
  const pushed = deps.push.configured;
  if (pushed) {
    try {
      ({ id } = await deps.push.send(message));
    } catch (err) {
      if (err instanceof PushError && err.reason === 'not_configured') {
        throw new AppError(409, 'push_not_configured');
      }
      console.warn(
        `[push] ${message.type} from the dialog failed: ${err instanceof Error ? err.message : err}`,
      );
      throw new AppError(424, 'push_failed');
    }
  } else if (!custom) {
    throw new AppError(409, 'push_not_configured');
  }
  let inbox = 0;
  const userId = custom && request.target === 'user' ? await userByPushId(deps.db, request.playerId) : null;
  const now = nowIso(deps.clock);
  await deps.db.transaction().execute(async (tx) => {
    if (custom && (request.target === 'all' || userId)) {
      await addMessage(tx, {
        userId,
        type: 'customMessage',
        title: request.title,
        message: request.message,
        at: now,
      });
      inbox = 1;
    }
    await recordAudit(tx, {
      actorId,
      action: 'notification.send',
      targetType: userId ? 'user' : 'notification',
      targetId: userId,
      changes: {
        notificationType: request.notificationType,
        target: request.target,
        ...(request.target === 'user' && { playerId: request.playerId }),
        ...(custom && { title: request.title, message: request.message }),
        pushed,
        inbox,
      },
      at: now,
    });
  });
  return { notificationType: request.notificationType, target: request.target, id, pushed, inbox };
}

/**
 * Runs a push after the reply, never failing or delaying it: the caller has committed its
 * transaction; a failure is only logged. Unconfigured, nothing is attempted.
 */
function detached(deps: Pick<AppDeps, 'push'>, label: string, work: () => Promise<unknown>): void {
  if (!deps.push.configured) return;
  Promise.resolve()
    .then(work)
    .catch((err: unknown) => {
      console.warn(`[push] ${label} not sent: ${err instanceof Error ? err.message : String(err)}`);
    });
}

/** Tells one user about an event (approval, rejection, withdrawal result) when they have a push id. */
export function notifyUser(deps: Pick<AppDeps, 'db' | 'push'>, userId: string, type: AutoType): void {
  detached(deps, type, async () => {
    const playerId = await pushIdOf(deps.db, userId);
    if (playerId) await deps.push.send(fixedMessage(type, { playerId }));
  });
}

/** Tells every subscribed device (a new task). */
export function notifyAll(deps: Pick<AppDeps, 'push'>, type: Extract<NotificationType, 'newTask'>): void {
  detached(deps, type, () => deps.push.send(fixedMessage(type, 'all')));
}
