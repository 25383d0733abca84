import enAuth from './en/auth.json';
import enCommon from './en/common.json';
import enErrors from './en/errors.json';
import enLanding from './en/landing.json';
import trAuth from './tr/auth.json';
import trCommon from './tr/common.json';
import trErrors from './tr/errors.json';
import trLanding from './tr/landing.json';

/**
 * The namespaces of the app shell and the pages bundled with it (home, sign-in), in both
 * languages. The other pages bring theirs (pages.ts, admin.ts; lib/i18n.ts loads them).
 */
export const coreResources = {
  en: {
    common: enCommon,
    auth: enAuth,
    landing: enLanding,
    errors: enErrors,
  },
  tr: {
    common: trCommon,
    auth: trAuth,
    landing: trLanding,
    errors: trErrors,
  },
} as const;
