import { CATEGORIES, DIFFICULTIES, PROOF_TYPES, type TaskStatus } from '@contract/constants';
import { MIN_SECONDS } from '@contract/fraud';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/field';
import { commentsOf, FORM_STATUSES, linesOf, minSecondsOf, type TaskFormValues } from './task-form-values';

interface Props {
  values: TaskFormValues;
  errors: Record<string, string>;
  /** editing: the "too fast" minimum the saved task has in force (seconds) */
  minSecondsInForce?: number;
  set<K extends keyof TaskFormValues>(key: K, value: TaskFormValues[K]): void;
}

const describedBy = (id: string, error?: string, hint?: boolean) =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

/** The inputs of the admin task form, in the order an admin fills them in. */
export function TaskFormFields({ values, errors, set, minSecondsInForce }: Props) {
  const { t } = useTranslation('admin');
  const pick = <T extends string>(list: readonly T[], value: string, fallback: T): T =>
    list.find((v) => v === value) ?? fallback;
  const statuses: TaskStatus[] = [...FORM_STATUSES];
  if (!statuses.includes(values.status)) statuses.push(values.status);
  const pool = commentsOf(values.automaticComments);
  const input = (key: 'title' | 'taskLink') => ({
    id: key,
    value: values[key],
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': describedBy(key, errors[key]),
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });
  return (
    <div className="task-form-grid">
      <div className="span-2">
        <Field id="title" label={t('taskForm.fields.title')} error={errors.title}>
          <input {...input('title')} maxLength={200} />
        </Field>
      </div>
      <Field id="category" label={t('taskForm.fields.category')} error={errors.category}>
        <select
          id="category"
          value={values.category}
          onChange={(e) => set('category', pick(CATEGORIES, e.target.value, 'social_media'))}
        >
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`common:categories.${c}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="difficulty" label={t('taskForm.fields.difficulty')} error={errors.difficulty}>
        <select
          id="difficulty"
          value={values.difficulty}
          onChange={(e) => set('difficulty', pick(DIFFICULTIES, e.target.value, 'easy'))}
        >
          {DIFFICULTIES.map((d) => (
            <option key={d} value={d}>
              {t(`common:difficulties.${d}`)}
            </option>
          ))}
        </select>
      </Field>
      <div className="span-2">
        <Field id="description" label={t('taskForm.fields.description')} error={errors.description}>
          <textarea
            id="description"
            rows={8}
            value={values.description}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={describedBy('description', errors.description)}
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>
      </div>
      <div className="span-2">
        <Field id="automaticComments" label={t('taskForm.fields.automaticComments')}>
          <textarea
            id="automaticComments"
            rows={6}
            value={values.automaticComments}
            aria-describedby="automaticComments-hint"
            onChange={(e) => set('automaticComments', e.target.value)}
          />
        </Field>
        <p id="automaticComments-hint" className="muted small field-hint" data-testid="comments-hint">
          {t('taskForm.commentsHint', { count: pool.comments.length })}
          {pool.removed > 0 && ` ${t('taskForm.commentsWillDrop', { count: pool.removed })}`}
        </p>
      </div>
      <Field id="reward" label={t('taskForm.fields.reward')} error={errors.reward}>
        <input
          id="reward"
          type="number"
          inputMode="decimal"
          min={0.01}
          step={0.01}
          value={values.reward}
          aria-invalid={errors.reward ? true : undefined}
          aria-describedby={describedBy('reward', errors.reward)}
          onChange={(e) => set('reward', e.target.value)}
        />
      </Field>
      <Field id="maxCompletions" label={t('taskForm.fields.maxCompletions')} error={errors.maxCompletions}>
        <input
          id="maxCompletions"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={values.maxCompletions}
          aria-invalid={errors.maxCompletions ? true : undefined}
          onChange={(e) => set('maxCompletions', e.target.value)}
        />
      </Field>
      <Field id="deadline" label={t('taskForm.fields.deadline')} error={errors.deadline}>
        <input
          id="deadline"
          type="date"
          value={values.deadline}
          aria-describedby={describedBy('deadline', errors.deadline, true)}
          onChange={(e) => set('deadline', e.target.value)}
        />
        <p id="deadline-hint" className="muted small field-hint">
          {t('taskForm.deadlineHint')}
        </p>
      </Field>
      <Field id="status" label={t('taskForm.fields.status')} error={errors.status}>
        <select
          id="status"
          value={values.status}
          onChange={(e) => set('status', pick(statuses, e.target.value, 'active'))}
        >
          {statuses.map((s) => (
            <option key={s} value={s}>
              {t(`statuses.${s}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="requiredProof" label={t('taskForm.fields.requiredProof')} error={errors.requiredProof}>
        <select
          id="requiredProof"
          value={values.requiredProof}
          onChange={(e) => set('requiredProof', pick(PROOF_TYPES, e.target.value, 'screenshot'))}
        >
          {PROOF_TYPES.map((p) => (
            <option key={p} value={p}>
              {t(`common:proofTypes.${p}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="taskLink" label={t('taskForm.fields.taskLink')} error={errors.taskLink}>
        <input {...input('taskLink')} type="url" inputMode="url" placeholder="https://" />
      </Field>
      <Field id="estimatedTime" label={t('taskForm.fields.estimatedTime')} error={errors.estimatedTime}>
        <input
          id="estimatedTime"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={values.estimatedTime}
          aria-invalid={errors.estimatedTime ? true : undefined}
          aria-describedby={describedBy('estimatedTime', errors.estimatedTime, true)}
          onChange={(e) => set('estimatedTime', e.target.value)}
        />
        <p id="estimatedTime-hint" className="muted small field-hint">
          {t('taskForm.estimatedTimeHint')}
        </p>
      </Field>
      <Field
        id="timeLimitMinutes"
        label={t('taskForm.fields.timeLimitMinutes')}
        error={errors.timeLimitMinutes}
      >
        <input
          id="timeLimitMinutes"
          type="number"
          inputMode="numeric"
          min={5}
          max={10_080}
          step={1}
          value={values.timeLimitMinutes}
          aria-invalid={errors.timeLimitMinutes ? true : undefined}
          aria-describedby={describedBy('timeLimitMinutes', errors.timeLimitMinutes, true)}
          onChange={(e) => set('timeLimitMinutes', e.target.value)}
          data-testid="time-limit"
        />
        <p id="timeLimitMinutes-hint" className="muted small field-hint">
          {t('taskForm.timeLimitHint')}
        </p>
      </Field>
      <Field id="minSeconds" label={t('taskForm.fields.minSeconds')} error={errors.minSeconds}>
        <input
          id="minSeconds"
          type="number"
          inputMode="numeric"
          min={MIN_SECONDS.min}
          max={MIN_SECONDS.max}
          step={1}
          value={values.minSeconds}
          placeholder={t('taskForm.minSecondsPlaceholder')}
          aria-invalid={errors.minSeconds ? true : undefined}
          aria-describedby={describedBy('minSeconds', errors.minSeconds, true)}
          onChange={(e) => set('minSeconds', e.target.value)}
          data-testid="min-seconds"
        />
        <p id="minSeconds-hint" className="muted small field-hint" data-testid="min-seconds-hint">
          {t('taskForm.minSecondsHint')}
          <MinSecondsNow values={values} inForce={minSecondsInForce} />
        </p>
      </Field>
      {(['steps', 'requirements'] as const).map((key) => (
        <div className="span-2" key={key}>
          <Field id={key} label={t(`taskForm.fields.${key}`)} error={errors[key]}>
            <textarea
              id={key}
              rows={4}
              value={values[key]}
              aria-invalid={errors[key] ? true : undefined}
              aria-describedby={describedBy(key, errors[key], true)}
              onChange={(e) => set(key, e.target.value)}
            />
          </Field>
          <p id={`${key}-hint`} className="muted small field-hint">
            {t('taskForm.linesHint', { count: linesOf(values[key]).length })}
          </p>
        </div>
      ))}
    </div>
  );
}

/** What the "too fast" check uses: (editing) the saved task's value, and the form's when it differs. */
function MinSecondsNow({ values, inForce }: { values: TaskFormValues; inForce?: number }) {
  const { t } = useTranslation('admin');
  const now = minSecondsOf(values);
  const blank = values.minSeconds.trim() === '';
  const parts: string[] = [];
  if (inForce !== undefined) parts.push(t('taskForm.minSecondsInForce', { value: inForce }));
  if (now !== null && now !== inForce) {
    if (blank) parts.push(t('taskForm.minSecondsDerived', { value: now }));
    else if (inForce !== undefined) parts.push(t('taskForm.minSecondsAfterSave', { value: now }));
  }
  if (parts.length === 0) return null;
  return (
    <strong className="field-hint-now" data-testid="min-seconds-now">
      {parts.join(' ')}
    </strong>
  );
}
