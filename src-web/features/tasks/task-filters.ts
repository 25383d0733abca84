import {
  CATEGORIES,
  type Category,
  DIFFICULTIES,
  type Difficulty,
  REWARD_RANGES,
  type RewardRange,
  TASK_SORTS,
  type TaskSort,
} from '@contract/constants';

/** The task list's search, filters, sort and page, as kept in the URL query string. */
export interface TaskFilters {
  q: string;
  category: Category | '';
  difficulty: Difficulty | '';
  rewardRange: RewardRange | '';
  sort: TaskSort;
  page: number;
}

export const DEFAULT_FILTERS: TaskFilters = {
  q: '',
  category: '',
  difficulty: '',
  rewardRange: '',
  sort: 'newest',
  page: 1,
};

/** Tasks per page of the list. */
export const TASKS_PAGE_SIZE = 12;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return values.find((v) => v === value) ?? '';
}

/** Reads the filters from the URL; unknown values fall back to the defaults. */
export function readFilters(params: URLSearchParams): TaskFilters {
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').trim().slice(0, 200),
    category: oneOf(CATEGORIES, params.get('category')),
    difficulty: oneOf(DIFFICULTIES, params.get('difficulty')),
    rewardRange: oneOf(REWARD_RANGES, params.get('rewardRange')),
    sort: oneOf(TASK_SORTS, params.get('sort')) || 'newest',
    page: Number.isInteger(page) && page > 1 ? Math.min(page, 1_000_000) : 1,
  };
}

/** The URL query string of the filters, leaving out every default so plain /tasks stays plain. */
export function writeFilters(filters: TaskFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (filters.q) out.set('q', filters.q);
  if (filters.category) out.set('category', filters.category);
  if (filters.difficulty) out.set('difficulty', filters.difficulty);
  if (filters.rewardRange) out.set('rewardRange', filters.rewardRange);
  if (filters.sort !== 'newest') out.set('sort', filters.sort);
  if (filters.page > 1) out.set('page', String(filters.page));
  return out;
}

/** The query of GET /api/tasks for these filters. */
export function apiQuery(filters: TaskFilters, limit = TASKS_PAGE_SIZE): string {
  const params = writeFilters(filters);
  params.set('sort', filters.sort);
  params.set('page', String(filters.page));
  params.set('limit', String(limit));
  return params.toString();
}

/** How many of category, difficulty and reward range are set (the filter button shows it). */
export function activeFilterCount(filters: TaskFilters): number {
  return [filters.category, filters.difficulty, filters.rewardRange].filter(Boolean).length;
}

export function hasAnyFilter(filters: TaskFilters): boolean {
  return filters.q !== '' || activeFilterCount(filters) > 0;
}
