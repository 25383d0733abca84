import { useTranslation } from 'react-i18next';
import type { TaskDto } from '../../../src-server/contract/tasks';
import { Modal } from '../../components/modal';

/** Asks before a task is deleted. */
export function DeleteTaskModal({
  task,
  pending,
  onClose,
  onConfirm,
}: {
  task: TaskDto | null;
  pending: boolean;
  onClose(): void;
  onConfirm(task: TaskDto): void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Modal
      open={task !== null}
      title={t('tasks.deleteTitle')}
      onClose={onClose}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={pending}
            onClick={() => task && onConfirm(task)}
            data-testid="confirm-delete"
          >
            {t('tasks.deleteConfirmButton')}
          </button>
        </>
      }
    >
      <p>{t('tasks.deleteConfirm', { title: task?.title ?? '' })}</p>
    </Modal>
  );
}
