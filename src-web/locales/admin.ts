import enAdmin from './en/admin.json';
import enAdminFraud from './en/adminFraud.json';
import enAdminLists from './en/adminLists.json';
import enAdminSystem from './en/adminSystem.json';
import enSecurity from './en/security.json';
import trAdmin from './tr/admin.json';
import trAdminFraud from './tr/adminFraud.json';
import trAdminLists from './tr/adminLists.json';
import trAdminSystem from './tr/adminSystem.json';
import trSecurity from './tr/security.json';

/** The admin screens' namespaces: loaded with the admin layout (lib/i18n.ts loadAdminLocales). */
export const adminResources = {
  en: {
    admin: enAdmin,
    adminLists: enAdminLists,
    adminFraud: enAdminFraud,
    adminSystem: enAdminSystem,
    security: enSecurity,
  },
  tr: {
    admin: trAdmin,
    adminLists: trAdminLists,
    adminFraud: trAdminFraud,
    adminSystem: trAdminSystem,
    security: trSecurity,
  },
} as const;
