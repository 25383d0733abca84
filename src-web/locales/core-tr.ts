import auth from './tr/auth.json';
import common from './tr/common.json';
import errors from './tr/errors.json';
import landing from './tr/landing.json';

/** The app shell's namespaces in Turkish (core.ts): a chunk of its own, loaded only for Turkish. */
export const coreTr = { common, auth, landing, errors } as const;
