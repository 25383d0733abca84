import type { NotificationType } from '../../contract/constants';

/** Texts in the two languages of the app. */
export interface Localized {
  en: string;
  tr: string;
}

/** One push message: to one device (its OneSignal subscription/player id) or to every subscribed one. */
export interface PushMessage {
  type: NotificationType;
  target: { playerId: string } | 'all';
  headings: Localized;
  contents: Localized;
}

/** Why a push was not sent: no app id or key configured, or the service refused or did not answer. */
export class PushError extends Error {
  constructor(
    readonly reason: 'not_configured' | 'failed',
    detail?: string,
  ) {
    super(detail ? `push ${reason}: ${detail}` : `push ${reason}`);
  }
}

/** Sends push messages; AppDeps.push, so tests can swap it or point it at a recorder. */
export interface PushNotifier {
  readonly configured: boolean;
  /** Resolves with the service's notification id (or null); throws PushError. */
  send(message: PushMessage): Promise<{ id: string | null }>;
}

/**
 * OneSignal's "everyone subscribed to push" segment. It was called 'Subscribed Users' before
 * OneSignal's user model v5; 'Total Subscriptions' is its current name.
 */
export const ALL_SUBSCRIBERS_SEGMENT = 'Total Subscriptions';

/** How long one call to the push service may take before it counts as failed. */
export const PUSH_TIMEOUT_MS = 10_000;

export interface OneSignalOptions {
  appId: string | null;
  apiKey: string | null;
  baseUrl: string;
  timeoutMs?: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bodyOf(appId: string, m: PushMessage): Record<string, unknown> {
  return {
    app_id: appId,
    target_channel: 'push',
    ...(m.target === 'all'
      ? { included_segments: [ALL_SUBSCRIBERS_SEGMENT] }
      : { include_subscription_ids: [m.target.playerId] }),
    headings: m.headings,
    contents: m.contents,
    data: { type: m.type },
  };
}

/**
 * The OneSignal REST API: POST {baseUrl}/notifications with `Authorization: Key <api key>`.
 * A non-2xx reply, a reply naming errors without a notification id, a network error or a
 * timeout is a PushError('failed'); a missing app id or key is PushError('not_configured').
 */
export function oneSignalNotifier(options: OneSignalOptions): PushNotifier {
  const { appId, apiKey } = options;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/notifications`;
  const timeoutMs = options.timeoutMs ?? PUSH_TIMEOUT_MS;
  return {
    configured: Boolean(appId && apiKey),
    async send(message) {
      if (!appId || !apiKey) throw new PushError('not_configured');
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Key ${apiKey}` },
          body: JSON.stringify(bodyOf(appId, message)),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new PushError('failed', err instanceof Error ? err.message : String(err));
      }
      const text = await res.text().catch(() => '');
      if (!res.ok) throw new PushError('failed', `HTTP ${res.status} ${text.slice(0, 200)}`);
      let reply: unknown = null;
      try {
        reply = JSON.parse(text);
      } catch {
        // a 2xx without JSON still means it was accepted
      }
      const record = isRecord(reply) ? reply : {};
      const id = typeof record.id === 'string' && record.id ? record.id : null;
      if (!id && record.errors) throw new PushError('failed', JSON.stringify(record.errors).slice(0, 200));
      return { id };
    },
  };
}
