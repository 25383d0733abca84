import { fieldMessageKey } from '@contract/field-messages';
import type { TFunction } from 'i18next';
import { ApiError } from './api';

/** A server error as the user's language says it: by code, else the server's English text. */
export function errorText(t: TFunction, error: unknown, fallbackKey = 'errors:internal'): string {
  if (error instanceof ApiError) {
    const key = `errors:${error.code}`;
    const text = t(key, { ...error.details, defaultValue: '' });
    return text || error.message || t(fallbackKey);
  }
  return t(fallbackKey);
}

/** Field messages of a 422 (or of the shared schema in the browser), translated where known. */
export function fieldTexts(t: TFunction, errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const key = fieldMessageKey(message);
    out[field] = key ? t(`common:fields.${key}`) : message;
  }
  return out;
}
