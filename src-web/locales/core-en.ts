import common from './en/common.json';
import landing from './en/landing.json';

/**
 * The first page's namespaces in English (core.ts): a chunk of its own, loaded only for English.
 * The forms' and the error texts wait for the first page that uses them (forms-en.ts).
 */
export const coreEn = { common, landing } as const;
