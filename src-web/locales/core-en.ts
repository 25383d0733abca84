import auth from './en/auth.json';
import common from './en/common.json';
import errors from './en/errors.json';
import landing from './en/landing.json';

/** The app shell's namespaces in English (core.ts): a chunk of its own, loaded only for English. */
export const coreEn = { common, auth, landing, errors } as const;
