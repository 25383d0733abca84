import enAdmin from './en/admin.json';
import enAuth from './en/auth.json';
import enCommon from './en/common.json';
import enErrors from './en/errors.json';
import enLanding from './en/landing.json';
import trAdmin from './tr/admin.json';
import trAuth from './tr/auth.json';
import trCommon from './tr/common.json';
import trErrors from './tr/errors.json';
import trLanding from './tr/landing.json';

/** Every namespace in both languages; a test checks that their key sets are equal. */
export const resources = {
  en: { common: enCommon, auth: enAuth, landing: enLanding, errors: enErrors, admin: enAdmin },
  tr: { common: trCommon, auth: trAuth, landing: trLanding, errors: trErrors, admin: trAdmin },
} as const;
