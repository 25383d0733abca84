import type { TaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { formatCount } from '../../../components/admin/growth';
import { StatusBadge } from '../../../components/admin/status-badge';
import { StarIcon } from '../../../components/icons';
import { formatDate, formatMoney } from '../../../lib/format';
import { PencilIcon, TrashIcon } from '../shell/admin-icons';

interface Props {
  tasks: TaskDto[];
  featuring: string | null;
  onFeature(task: TaskDto): void;
  onDelete(task: TaskDto): void;
}

/** The admin task table: one row a task, with the featured star, edit and delete. */
export function TaskTable({ tasks, featuring, onFeature, onDelete }: Props) {
  const { t } = useTranslation('admin');
  return (
    <div className="table-wrap">
      <table className="table table-stack admin-task-table" data-testid="admin-task-table">
        <thead>
          <tr>
            <th scope="col">{t('tasks.columns.title')}</th>
            <th scope="col">{t('tasks.columns.category')}</th>
            <th scope="col">{t('tasks.columns.reward')}</th>
            <th scope="col">{t('tasks.columns.difficulty')}</th>
            <th scope="col">{t('tasks.columns.status')}</th>
            <th scope="col">{t('tasks.columns.featured')}</th>
            <th scope="col">{t('tasks.columns.completions')}</th>
            <th scope="col">{t('tasks.columns.createdAt')}</th>
            <th scope="col">{t('tasks.columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr key={task._id} data-testid="admin-task-row" data-id={task._id}>
              <td className="cell-title cell-head">
                <Link to={paths.adminTaskEdit(task._id)} className="strong">
                  {task.title}
                </Link>
                <div className="muted small mono task-id" title={task._id}>
                  {t('tasks.id', { id: task._id })}
                </div>
              </td>
              <td className="nowrap" data-label={t('tasks.columns.category')}>
                {t(`common:categories.${task.category}`)}
              </td>
              <td className="nowrap strong" data-label={t('tasks.columns.reward')}>
                {formatMoney(task.reward)}
              </td>
              <td data-label={t('tasks.columns.difficulty')}>
                <span className={`badge diff-${task.difficulty}`}>
                  {t(`common:difficulties.${task.difficulty}`)}
                </span>
              </td>
              <td data-label={t('tasks.columns.status')}>
                <StatusBadge status={task.status} />
              </td>
              <td data-label={t('tasks.columns.featured')}>
                <button
                  type="button"
                  className={`star-toggle${task.isFeatured ? ' is-on' : ''}`}
                  aria-pressed={task.isFeatured}
                  aria-label={t(task.isFeatured ? 'tasks.unfeature' : 'tasks.feature', { title: task.title })}
                  title={t(task.isFeatured ? 'tasks.unfeature' : 'tasks.feature', { title: task.title })}
                  aria-disabled={featuring === task._id}
                  onClick={() => onFeature(task)}
                  data-testid="feature-toggle"
                  data-task-id={task._id}
                >
                  <StarIcon size={20} filled={task.isFeatured} />
                </button>
              </td>
              <td className="nowrap" data-testid="completions" data-label={t('tasks.columns.completions')}>
                {/* the task's proofs on the review screen */}
                <Link
                  to={paths.adminSubmissionsOf({ task: task._id })}
                  title={t('tasks.proofsOf', { title: task.title })}
                  data-testid="task-proofs"
                >
                  {t('tasks.completions', {
                    done: formatCount(task.totalCompleted),
                    max: formatCount(task.maxCompletions),
                  })}
                </Link>
              </td>
              <td className="nowrap" data-label={t('tasks.columns.createdAt')}>
                {formatDate(task.createdAt)}
              </td>
              <td className="cell-actions">
                <div className="row-actions">
                  <Link
                    to={paths.adminTaskEdit(task._id)}
                    className="btn btn-outline btn-sm"
                    aria-label={t('tasks.editNamed', { title: task.title })}
                    title={t('tasks.editNamed', { title: task.title })}
                  >
                    <PencilIcon />
                    <span className="action-label">{t('tasks.edit')}</span>
                  </Link>
                  <button
                    type="button"
                    className="btn btn-outline btn-sm btn-danger-outline"
                    aria-label={t('tasks.deleteNamed', { title: task.title })}
                    title={t('tasks.deleteNamed', { title: task.title })}
                    onClick={() => onDelete(task)}
                  >
                    <TrashIcon />
                    <span className="action-label">{t('tasks.delete')}</span>
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
