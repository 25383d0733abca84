import type { Category } from '../../contract/constants';
import { foldSearch } from '../../db/search';

/**
 * The words a search finds a category by: its value with spaces and its English and Turkish
 * labels (the locale files' `common.categories`; a test keeps them in step).
 */
export const CATEGORY_SEARCH_WORDS: Record<Category, readonly string[]> = {
  social_media: ['Social Media', 'Sosyal Medya'],
  review: ['Review', 'Değerlendirme'],
  video: ['Video'],
  membership: ['Membership', 'Üyelik'],
  survey: ['Survey', 'Anket'],
  test: ['Test'],
  game: ['Game', 'Oyun'],
  inspection: ['Inspection', 'İnceleme'],
  giveaway: ['Giveaway', 'Çekiliş'],
  other: ['Other', 'Diğer'],
};

/** tasks.search_title: the folded title. */
export function taskSearchTitle(title: string): string {
  return foldSearch(title);
}

/**
 * tasks.search_body: the folded description, then the category's words, one per line. A folded
 * query never holds a line break, so no match runs from one part into the next.
 */
export function taskSearchBody(description: string, category: Category): string {
  const words = CATEGORY_SEARCH_WORDS[category] ?? [];
  const parts = new Set([category.replace(/_/g, ' '), ...words].map(foldSearch));
  return [foldSearch(description), ...parts].join('\n');
}
