import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, deleteUser, type HeldByUser } from '../../../components/admin/admin-api';
import { serverErrorText } from '../../../components/admin/server-error';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useToast } from '../../../components/toast';
import { ApiError } from '../../../lib/api';
import { formatMoney } from '../../../lib/format';

function heldOf(err: unknown): HeldByUser | null {
  if (!(err instanceof ApiError) || err.code !== 'user_has_money') return null;
  const held = err.details.held as HeldByUser | undefined;
  return held && typeof held.balance === 'number' ? held : null;
}

/**
 * Confirms the anonymising delete of an account. When the server finds the user still holding
 * money or pending items (409 user_has_money), the dialog lists them and asks the admin to
 * confirm the forfeit before deleting again with it.
 */
export function UserDeleteModal({
  user,
  onClose,
}: {
  user: { _id: string; name: string; email: string } | null;
  onClose(): void;
}) {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [held, setHeld] = useState<HeldByUser | null>(null);
  const [agreed, setAgreed] = useState(false);
  const remove = useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(t('userDeleteSuccess'));
      close();
    },
    onError: (err) => {
      const found = heldOf(err);
      setHeld(found);
      setAgreed(false);
      setFailure(found ? null : serverErrorText(t, err, 'adminLists:userDeleteError'));
    },
  });
  const close = () => {
    setFailure(null);
    setHeld(null);
    setAgreed(false);
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!user) return;
    if (held && !agreed) {
      setFailure(t('deleteDialog.forfeitRequired'));
      return;
    }
    setFailure(null);
    remove.mutate({ userId: user._id, forfeit: held !== null });
  };
  return (
    <ConfirmModal
      open={user !== null}
      title={t('deleteDialog.title')}
      confirmLabel={
        remove.isPending
          ? t('deleteDialog.deleting')
          : held
            ? t('deleteDialog.confirmForfeit')
            : t('deleteDialog.confirm')
      }
      confirmTestId="user-delete-confirm"
      pending={remove.isPending}
      onClose={close}
      onConfirm={confirm}
    >
      {user && <p>{t('deleteDialog.message', { name: user.name, email: user.email })}</p>}
      {held && (
        <div className="notice notice-warning user-delete-held" data-testid="user-delete-held">
          <p>{t('deleteDialog.heldIntro')}</p>
          <ul>
            {held.balance > 0 && (
              <li>{t('deleteDialog.heldBalance', { amount: formatMoney(held.balance) })}</li>
            )}
            {held.pendingWithdrawals > 0 && (
              <li>{t('deleteDialog.heldWithdrawals', { count: held.pendingWithdrawals })}</li>
            )}
            {held.pendingSubmissions > 0 && (
              <li>{t('deleteDialog.heldSubmissions', { count: held.pendingSubmissions })}</li>
            )}
            {held.pendingAppeals > 0 && (
              <li>{t('deleteDialog.heldAppeals', { count: held.pendingAppeals })}</li>
            )}
          </ul>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={agreed}
              data-testid="user-delete-forfeit"
              onChange={(e) => {
                setAgreed(e.target.checked);
                setFailure(null);
              }}
            />
            <span>{t('deleteDialog.forfeitAgree')}</span>
          </label>
        </div>
      )}
      {failure && (
        <p className="notice notice-error" role="alert">
          {failure}
        </p>
      )}
    </ConfirmModal>
  );
}
