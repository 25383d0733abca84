import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './modal';

/**
 * A small modal that asks before an action that cannot be undone (a delete, a payout): cancel,
 * and a button that confirms, red for a destructive action or green for a payment.
 */
export function ConfirmModal({
  open,
  title,
  confirmLabel,
  confirmTestId,
  pending,
  onClose,
  onConfirm,
  children,
  tone = 'danger',
}: {
  tone?: 'danger' | 'success';
  open: boolean;
  title: string;
  confirmLabel: string;
  confirmTestId: string;
  pending: boolean;
  onClose(): void;
  onConfirm(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>
            {t('actions.cancel')}
          </button>
          <button
            type="button"
            className={`btn btn-${tone}`}
            disabled={pending}
            onClick={onConfirm}
            data-testid={confirmTestId}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
