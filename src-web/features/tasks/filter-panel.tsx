import { CATEGORIES, DIFFICULTIES, REWARD_RANGES } from '@contract/constants';
import { useTranslation } from 'react-i18next';
import type { TaskFilters } from './task-filters';

/** Category, difficulty and reward range; every change applies at once (and goes to the URL). */
export function FilterPanel({
  idPrefix,
  filters,
  onChange,
}: {
  idPrefix: string;
  filters: TaskFilters;
  onChange(patch: Partial<TaskFilters>): void;
}) {
  const { t } = useTranslation(['tasks', 'common']);
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div className="filter-panel">
      <div className="field">
        <label htmlFor={id('category')}>{t('list.category')}</label>
        <select
          id={id('category')}
          value={filters.category}
          onChange={(e) => onChange({ category: e.target.value as TaskFilters['category'] })}
        >
          <option value="">{t('list.allCategories')}</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`common:categories.${c}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={id('difficulty')}>{t('list.difficulty')}</label>
        <select
          id={id('difficulty')}
          value={filters.difficulty}
          onChange={(e) => onChange({ difficulty: e.target.value as TaskFilters['difficulty'] })}
        >
          <option value="">{t('list.allDifficulties')}</option>
          {DIFFICULTIES.map((d) => (
            <option key={d} value={d}>
              {t(`common:difficulties.${d}`)}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="field reward-ranges">
        <legend>{t('list.rewardRange')}</legend>
        {(['', ...REWARD_RANGES] as const).map((r) => (
          <label key={r || 'all'} className="chip-radio">
            <input
              type="radio"
              name={id('reward')}
              value={r}
              checked={filters.rewardRange === r}
              onChange={() => onChange({ rewardRange: r })}
            />
            <span>{r ? t(`rewardRanges.${r}`) : t('list.allRewards')}</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}
