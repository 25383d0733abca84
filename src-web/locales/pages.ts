import enProfile from './en/profile.json';
import enSecurity from './en/security.json';
import enSubmissions from './en/submissions.json';
import enTasks from './en/tasks.json';
import trProfile from './tr/profile.json';
import trSecurity from './tr/security.json';
import trSubmissions from './tr/submissions.json';
import trTasks from './tr/tasks.json';

/** The namespaces of the task, profile and submission pages: loaded with them (lib/i18n.ts). */
export const pageResources = {
  en: { profile: enProfile, tasks: enTasks, submissions: enSubmissions, security: enSecurity },
  tr: { profile: trProfile, tasks: trTasks, submissions: trSubmissions, security: trSecurity },
} as const;
