import auth from './tr/auth.json';
import errors from './tr/errors.json';

/**
 * The sign-in forms' and the error texts in Turkish: nothing on the first page shows them, so
 * they load with the first other page (lib/i18n.ts, loadFormLocales), in the reader's language.
 */
export const formsTr = { auth, errors } as const;
