import { coreEn } from './core-en';
import { coreTr } from './core-tr';

/**
 * The namespaces of the app shell and the pages bundled with it (home, sign-in), in both
 * languages. The app loads only the reader's language (core-en.ts or core-tr.ts, through
 * lib/i18n.ts); the other pages bring theirs (pages.ts, admin.ts).
 */
export const coreResources = { en: coreEn, tr: coreTr } as const;
