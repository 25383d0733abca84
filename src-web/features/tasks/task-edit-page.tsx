import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Skeleton } from '../../components/skeleton';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { TaskEditForm } from './task-edit-form';
import { TaskLoadError, TaskNotFound } from './task-not-found';
import { useTask } from './tasks-api';

/** /tasks/{id}/edit: the owner's form, or the permission message for anyone else. */
export function TaskEditPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { user } = useAuth();
  const task = useTask(id);
  usePageTitle(t('titles.taskEdit'));
  // the server has the last word: a 403 on save also shows the permission message
  const [refused, setRefused] = useState(false);
  if (task.isPending) return <Skeleton layout="page" />;
  if (task.isError) {
    return task.error instanceof ApiError && task.error.status === 404 ? (
      <TaskNotFound />
    ) : (
      <TaskLoadError onRetry={() => task.refetch()} />
    );
  }
  // only an admin edits a task: its creator keeps no power of their own once demoted
  const allowed = user?.role === 'admin';
  if (!allowed || refused) return <NotOwner taskId={id} />;
  return <TaskEditForm task={task.data} onForbidden={() => setRefused(true)} />;
}

function NotOwner({ taskId }: { taskId: string }) {
  const { t } = useTranslation(['tasks', 'errors']);
  return (
    <section className="container narrow center-card card" data-testid="edit-denied" role="alert">
      <h1>{t('common:denied.title')}</h1>
      <p>{t('errors:task_not_owner')}</p>
      <Link className="btn btn-primary" to={paths.task(taskId)}>
        {t('edit.backToTask')}
      </Link>
    </section>
  );
}
