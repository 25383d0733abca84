import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/errors';

// codes that say nothing more than "it failed": the screen's own message says more
const GENERIC = new Set(['internal', 'bad_request', 'malformed_json', 'route_not_found', 'not_found']);

/**
 * The message of a failed admin action: the server's reason in the user's language when it
 * gave a specific one (it knows best what went wrong), else the screen's own key.
 */
export function actionError(t: TFunction, error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError && !GENERIC.has(error.code) && error.status < 500) {
    return errorText(t, error, fallbackKey);
  }
  return t(fallbackKey);
}
