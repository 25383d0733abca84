import { coreEn } from './core-en';
import { coreTr } from './core-tr';
import { formsEn } from './forms-en';
import { formsTr } from './forms-tr';

/**
 * The namespaces of the app shell (the first page's, then the forms' and the error texts), in
 * both languages. The app loads only the reader's language, each part when a page needs it
 * (core-*.ts at start, forms-*.ts with the first other page, through lib/i18n.ts); the other
 * pages bring theirs (pages.ts, admin.ts).
 */
export const coreResources = {
  en: { ...coreEn, ...formsEn },
  tr: { ...coreTr, ...formsTr },
} as const;
