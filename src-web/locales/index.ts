import enAdmin from './en/admin.json';
import enAdminReview from './en/adminReview.json';
import enAuth from './en/auth.json';
import enCommon from './en/common.json';
import enErrors from './en/errors.json';
import enLanding from './en/landing.json';
import enProfile from './en/profile.json';
import enSubmissions from './en/submissions.json';
import enTasks from './en/tasks.json';
import trAdmin from './tr/admin.json';
import trAdminReview from './tr/adminReview.json';
import trAuth from './tr/auth.json';
import trCommon from './tr/common.json';
import trErrors from './tr/errors.json';
import trLanding from './tr/landing.json';
import trProfile from './tr/profile.json';
import trSubmissions from './tr/submissions.json';
import trTasks from './tr/tasks.json';

/** Every namespace in both languages; a test checks that their key sets are equal. */
export const resources = {
  en: {
    common: enCommon,
    auth: enAuth,
    landing: enLanding,
    errors: enErrors,
    admin: enAdmin,
    adminReview: enAdminReview,
    profile: enProfile,
    tasks: enTasks,
    submissions: enSubmissions,
  },
  tr: {
    common: trCommon,
    auth: trAuth,
    landing: trLanding,
    errors: trErrors,
    admin: trAdmin,
    adminReview: trAdminReview,
    profile: trProfile,
    tasks: trTasks,
    submissions: trSubmissions,
  },
} as const;
