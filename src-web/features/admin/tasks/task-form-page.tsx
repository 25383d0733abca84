import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { Skeleton } from '../../../components/skeleton';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/page-title';
import { useAdminTask } from './admin-tasks-api';
import { CommentPool } from './comment-pool';
import { TaskForm } from './task-form';
import { NEW_TASK_VALUES, valuesFromTask } from './task-form-values';

/** /admin/tasks/new and /admin/tasks/edit/{id}. */
export function AdminTaskFormPage() {
  const { t } = useTranslation('admin');
  const { id } = useParams();
  usePageTitle(t(id ? 'common:titles.editTask' : 'common:titles.newTask'));
  const task = useAdminTask(id);
  const title = id ? t('taskForm.editTitle') : t('taskForm.newTitle');

  let body: ReactNode;
  if (!id) body = <TaskForm initial={NEW_TASK_VALUES} />;
  else if (task.isPending) body = <Skeleton layout="page" />;
  else if (task.isError) {
    body =
      task.error instanceof ApiError && task.error.status === 404 ? (
        <div className="card state-card admin-not-found" role="alert" data-testid="task-not-found">
          <h2>{t('taskForm.notFound')}</h2>
          <p className="muted mono">{t('taskForm.notFoundId', { id })}</p>
          <Link to={paths.adminTasks} className="btn btn-primary">
            {t('taskForm.returnToList')}
          </Link>
        </div>
      ) : (
        <div className="notice notice-error admin-load-error" role="alert">
          <p>{t('taskForm.taskLoadError')}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => task.refetch()}>
            {t('common:actions.retry')}
          </button>
        </div>
      );
  } else {
    body = (
      <div className="task-form-layout">
        <TaskForm key={task.data._id} initial={valuesFromTask(task.data)} editing={task.data} />
        <CommentPool task={task.data} />
      </div>
    );
  }

  return (
    <section className="admin-page" aria-labelledby="task-form-title">
      <Link to={paths.adminTasks} className="back-link">
        ← {t('taskForm.backToList')}
      </Link>
      <header className="admin-page-head">
        <h1 id="task-form-title">{title}</h1>
      </header>
      {body}
    </section>
  );
}
