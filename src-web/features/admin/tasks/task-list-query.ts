import { CATEGORIES, type Category, PAGE_SIZES } from '@contract/constants';

/** The status filter of the admin task list. */
export const TASK_LIST_FILTERS = ['all', 'active', 'inactive', 'completed'] as const;
export type TaskListFilter = (typeof TASK_LIST_FILTERS)[number];

export interface TaskListState {
  q: string;
  status: TaskListFilter;
  page: number;
}

/** The list's state from the address bar (bad values fall back to the defaults). */
export function readTaskListState(params: URLSearchParams): TaskListState {
  const status = TASK_LIST_FILTERS.find((s) => s === params.get('status')) ?? 'all';
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    status,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The address-bar form of the state, leaving out the defaults. */
export function writeTaskListState(state: TaskListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set('q', state.q);
  if (state.status !== 'all') params.set('status', state.status);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** Category labels in each language, to find the category a search names. */
export type CategoryLabels = readonly Readonly<Record<Category, string>>[];

/**
 * The category a search text names by its label in either language ("Anket", "survey",
 * "Sosyal Medya"): the server searches titles and category keys, which are English.
 */
export function categoryNamed(q: string, labels: CategoryLabels): Category | undefined {
  const text = q.trim().toLocaleLowerCase('tr-TR');
  if (!text) return undefined;
  return CATEGORIES.find((c) =>
    labels.some((l) => l[c].toLocaleLowerCase('tr-TR') === text || c.replace('_', ' ') === text),
  );
}

/**
 * GET /api/tasks for the admin list: every task (`all=1`), newest first, 10 a page. A search
 * that names a category filters by it; any other text searches titles and categories.
 */
export function taskListApiQuery(state: TaskListState, labels: CategoryLabels): string {
  const params = new URLSearchParams({ all: '1', sort: 'newest' });
  if (state.status !== 'all') params.set('status', state.status);
  const q = state.q.trim();
  const category = categoryNamed(q, labels);
  if (category) params.set('category', category);
  else if (q) params.set('q', q);
  params.set('page', String(state.page));
  params.set('limit', String(PAGE_SIZES.adminTasks));
  return params.toString();
}
