import common from './tr/common.json';
import landing from './tr/landing.json';

/**
 * The first page's namespaces in Turkish (core.ts): a chunk of its own, loaded only for Turkish.
 * The forms' and the error texts wait for the first page that uses them (forms-tr.ts).
 */
export const coreTr = { common, landing } as const;
