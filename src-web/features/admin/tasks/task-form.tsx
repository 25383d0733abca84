import { TIMINGS_MS } from '@contract/constants';
import type { TaskDto } from '@contract/tasks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { actionError } from '../../../components/admin/action-error';
import { useToast } from '../../../components/toast';
import { ApiError } from '../../../lib/api';
import { useSaveTask } from './admin-tasks-api';
import { TaskFormFields } from './task-form-fields';
import { checkTaskForm, type TaskFormValues, taskMessageKey } from './task-form-values';

/**
 * The create and edit form. Checked in the browser first (title, description, reward, link);
 * on save the removed duplicate or blank comment lines are announced for 3 seconds and the
 * list opens again.
 */
export function TaskForm({ initial, editing }: { initial: TaskFormValues; editing?: TaskDto }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const navigate = useNavigate();
  const save = useSaveTask();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const message = (text: string) => {
    const key = taskMessageKey(text);
    return key ? t(`taskForm.errors.${key}`) : text;
  };
  const showErrors = (raw: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [field, text] of Object.entries(raw)) out[field] = message(text);
    setErrors(out);
    const first = Object.keys(out)[0];
    if (first) document.getElementById(first)?.focus();
  };
  const set = <K extends keyof TaskFormValues>(key: K, value: TaskFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!(key in e)) return e;
      const { [key]: _gone, ...rest } = e;
      return rest;
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkTaskForm(values, editing);
    if (!checked.ok) {
      showErrors(checked.errors);
      return;
    }
    save.mutate(
      { id: editing?._id, body: checked.body },
      {
        onSuccess: (reply) => {
          const removed = checked.removed + (reply.removedComments ?? 0);
          toast.success(t(editing ? 'taskForm.updated' : 'taskForm.created', { title: reply.data.title }));
          if (removed > 0) {
            toast.show(
              t('taskForm.duplicatesRemoved', { count: removed }),
              'info',
              TIMINGS_MS.duplicateNotice,
            );
          }
          navigate(paths.adminTasks);
        },
        onError: (err) => {
          if (err instanceof ApiError && Object.keys(err.errors).length > 0) showErrors(err.errors);
        },
      },
    );
  };

  return (
    <form className="card task-form" onSubmit={submit} noValidate data-testid="task-form">
      {save.isError && (
        <p className="notice notice-error" role="alert" data-testid="task-save-error">
          {actionError(t, save.error, 'admin:taskForm.taskSaveError')}
        </p>
      )}
      <TaskFormFields
        values={values}
        errors={errors}
        set={set}
        minSecondsInForce={editing?.minSecondsInForce}
      />
      <div className="form-actions">
        <Link to={paths.adminTasks} className="btn btn-outline">
          {t('common:actions.cancel')}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? t('taskForm.saving') : t(editing ? 'taskForm.save' : 'taskForm.create')}
        </button>
      </div>
    </form>
  );
}
