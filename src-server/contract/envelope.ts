import type { ApiSuccess } from './errors';

/**
 * The one shape of every successful JSON reply: `{ success: true, ...extra, data }`. `extra` holds
 * the few top-level fields some replies carry beside the data (a sign-in's token and message,
 * the comment lines a task save dropped).
 */
export function envelope<T, E extends Record<string, unknown> = Record<never, never>>(
  data: T,
  extra?: E,
): ApiSuccess<T> & E {
  return { success: true, ...(extra ?? ({} as E)), data };
}

/**
 * The same envelope around data already written as JSON text: the task list writes each held
 * row's fixed part once and splices it into every page, and the money routes store the reply's
 * text to replay it byte for byte.
 */
export function envelopeText(dataJson: string): string {
  return `{"success":true,"data":${dataJson}}`;
}
