import auth from './en/auth.json';
import errors from './en/errors.json';

/**
 * The sign-in forms' and the error texts in English: nothing on the first page shows them, so
 * they load with the first other page (lib/i18n.ts, loadFormLocales), in the reader's language.
 */
export const formsEn = { auth, errors } as const;
