import type { TaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal';

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
    <ConfirmModal
      open={task !== null}
      title={t('tasks.deleteTitle')}
      confirmLabel={t('tasks.deleteConfirmButton')}
      confirmTestId="confirm-delete"
      pending={pending}
      onClose={onClose}
      onConfirm={() => task && onConfirm(task)}
    >
      <p>{t('tasks.deleteConfirm', { title: task?.title ?? '' })}</p>
    </ConfirmModal>
  );
}
