import enAdmin from './en/admin.json';
import enAdminReview from './en/adminReview.json';
import trAdmin from './tr/admin.json';
import trAdminReview from './tr/adminReview.json';

/** The admin screens' namespaces: loaded with the admin layout (lib/i18n.ts loadAdminLocales). */
export const adminResources = {
  en: { admin: enAdmin, adminReview: enAdminReview },
  tr: { admin: trAdmin, adminReview: trAdminReview },
} as const;
