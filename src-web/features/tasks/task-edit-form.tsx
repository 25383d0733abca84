import { CATEGORIES, DIFFICULTIES, PROOF_TYPES } from '@contract/constants';
import { OWNER_TASK_STATUSES, type TaskDto } from '@contract/tasks';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Field } from '../../components/field';
import { useToast } from '../../components/toast';
import { ApiError } from '../../lib/api';
import {
  checkOwnerForm,
  firstDeadlineDay,
  initialValues,
  type OwnerFormValues,
  taskFieldKey,
} from './owner-form';
import { actionError, saveTask, taskKeys } from './tasks-api';

type Key = keyof OwnerFormValues;

/** The owner's edit form: every field required, the deadline after today; saved with PUT. */
export function TaskEditForm({ task, onForbidden }: { task: TaskDto; onForbidden(): void }) {
  const { t } = useTranslation(['tasks', 'common']);
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => initialValues(task));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const fieldText = (message: string) => {
    const key = taskFieldKey(message);
    return key ? t(`fields.${key}`) : message;
  };
  const showErrors = (raw: Record<string, string>) =>
    setErrors(Object.fromEntries(Object.entries(raw).map(([k, m]) => [k, fieldText(m)])));
  const set = (key: Key) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const checked = checkOwnerForm(values);
    if ('errors' in checked) return showErrors(checked.errors);
    setBusy(true);
    try {
      const reply = await saveTask(task._id, checked.body);
      await queryClient.invalidateQueries({ queryKey: taskKeys.all });
      toast.success(t('edit.saved'));
      if (reply.removedComments > 0) toast.show(t('edit.removedComments', { count: reply.removedComments }));
      navigate(paths.task(task._id));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 403 && err.code === 'task_not_owner')
        return onForbidden();
      if (err instanceof ApiError && Object.keys(err.errors).length) showErrors(err.errors);
      setError(actionError(t, err, 'tasks:edit.saveError'));
    }
  };

  const input = (key: Key, type = 'text', extra: Record<string, string | number> = {}) => (
    <Row id={key} label={t(`edit.fields.${key}`)} error={errors[key]}>
      <input
        id={`edit-${key}`}
        type={type}
        value={values[key]}
        onChange={set(key)}
        aria-invalid={!!errors[key]}
        {...extra}
      />
    </Row>
  );
  const select = (key: Key, options: readonly string[], label: (o: string) => string) => (
    <Row id={key} label={t(`edit.fields.${key}`)} error={errors[key]}>
      <select id={`edit-${key}`} value={values[key]} onChange={set(key)} aria-invalid={!!errors[key]}>
        <option value="">{t('edit.choose')}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {label(o)}
          </option>
        ))}
      </select>
    </Row>
  );
  const area = (key: Key, rows: number, hint?: string) => (
    <Row id={key} label={t(`edit.fields.${key}`)} error={errors[key]} hint={hint}>
      <textarea
        id={`edit-${key}`}
        rows={rows}
        value={values[key]}
        onChange={set(key)}
        aria-invalid={!!errors[key]}
      />
    </Row>
  );
  const stats = task.commentStats;

  return (
    <section className="container section task-edit" data-testid="task-edit">
      <Link to={paths.task(task._id)} className="back-link">
        ← {t('edit.backToTask')}
      </Link>
      <h1>{t('edit.title')}</h1>
      <p className="muted">{t('edit.subtitle')}</p>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="edit-error">
          {error}
        </p>
      )}
      <form className="card edit-form" onSubmit={submit} noValidate>
        {input('title', 'text', { maxLength: 200 })}
        {area('description', 8)}
        <div className="form-grid">
          {select('category', CATEGORIES, (c) => t(`common:categories.${c}`))}
          {select('difficulty', DIFFICULTIES, (d) => t(`common:difficulties.${d}`))}
          {input('reward', 'number', { min: 0.01, step: 0.01, inputMode: 'decimal' })}
          {input('deadline', 'date', { min: firstDeadlineDay() })}
          {select('status', OWNER_TASK_STATUSES, (s) => t(`edit.statuses.${s}`))}
          {input('maxCompletions', 'number', { min: 1, step: 1, inputMode: 'numeric' })}
          {select('requiredProof', PROOF_TYPES, (p) => t(`common:proofTypes.${p}`))}
          {input('estimatedTime', 'number', { min: 0, step: 1, inputMode: 'numeric' })}
          {input('timeLimitMinutes', 'number', { min: 5, max: 10_080, step: 1, inputMode: 'numeric' })}
        </div>
        {input('taskLink', 'url', { placeholder: 'https://', maxLength: 2000 })}
        {area('steps', 4, t('edit.linesHint'))}
        {area('requirements', 4, t('edit.linesHint'))}
        {area('automaticComments', 6, `${t('edit.linesHint')} ${t('edit.commentStats', stats)}`)}
        <div className="form-actions">
          <Link className="btn btn-outline" to={paths.task(task._id)}>
            {t('common:actions.cancel')}
          </Link>
          <button className="btn btn-primary" type="submit" disabled={busy} data-testid="edit-save">
            {busy ? t('common:status.wait') : t('common:actions.save')}
          </button>
        </div>
      </form>
    </section>
  );
}

function Row({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <Field id={`edit-${id}`} label={label} error={error}>
      {children}
      {hint && <p className="muted small">{hint}</p>}
    </Field>
  );
}
