import { adminResources } from './admin';
import { coreResources } from './core';
import { pageResources } from './pages';

/**
 * Every namespace in both languages; a test checks that their key sets are equal. The app
 * bundles only `coreResources`; the others come with the pages that use them.
 */
export const resources = {
  en: { ...coreResources.en, ...pageResources.en, ...adminResources.en },
  tr: { ...coreResources.tr, ...pageResources.tr, ...adminResources.tr },
} as const;
