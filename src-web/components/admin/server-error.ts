import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/errors';

/**
 * The server's reason when it gave one (a refusal: already reviewed, last admin, a field),
 * translated by its code; the screen's own message for a crash or a lost connection.
 */
export function serverErrorText(t: TFunction, error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError && error.status > 0 && error.status < 500 && error.code !== 'internal') {
    return errorText(t, error, fallbackKey);
  }
  return t(fallbackKey);
}
