import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './modal';

/** A small modal that asks before a destructive action: cancel, and a danger button that confirms. */
export function ConfirmModal({
  open,
  title,
  confirmLabel,
  confirmTestId,
  pending,
  onClose,
  onConfirm,
  children,
}: {
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
            className="btn btn-danger"
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
