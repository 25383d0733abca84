import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { useToast } from '../../components/toast';
import { adminKeys, deleteUser } from './admin-review-api';
import { serverErrorText } from './server-error';

/** Confirms the anonymising delete of an account. */
export function UserDeleteModal({
  user,
  onClose,
}: {
  user: { _id: string; name: string; email: string } | null;
  onClose(): void;
}) {
  const { t } = useTranslation('adminReview');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(t('userDeleteSuccess'));
      close();
    },
    onError: (err) => setFailure(serverErrorText(t, err, 'adminReview:userDeleteError')),
  });
  const close = () => {
    setFailure(null);
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      open={user !== null}
      title={t('deleteDialog.title')}
      confirmLabel={remove.isPending ? t('deleteDialog.deleting') : t('deleteDialog.confirm')}
      confirmTestId="user-delete-confirm"
      pending={remove.isPending}
      onClose={close}
      onConfirm={() => user && remove.mutate(user._id)}
    >
      {user && <p>{t('deleteDialog.message', { name: user.name, email: user.email })}</p>}
      {failure && (
        <p className="notice notice-error" role="alert">
          {failure}
        </p>
      )}
    </ConfirmModal>
  );
}
