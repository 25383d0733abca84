import type { ReactNode } from 'react';
import { DialogFrame } from './dialog-frame';

interface ModalProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  /** Closes on a click outside the box (default true). */
  closeOnBackdrop?: boolean;
  size?: 'sm' | 'md' | 'lg';
  footer?: ReactNode;
  /** See DialogFrame: the body takes focus to be scrolled by keyboard. */
  scrollableBody?: boolean;
}

/**
 * A modal dialog on the native <dialog>: focus stays inside, Escape closes it,
 * and a click on the backdrop closes it too.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  closeOnBackdrop = true,
  size = 'md',
  footer,
  scrollableBody,
}: ModalProps) {
  return (
    <DialogFrame
      variant="modal"
      className={`modal modal-${size}`}
      open={open}
      title={title}
      onClose={onClose}
      closeOnBackdrop={closeOnBackdrop}
      footer={footer}
      scrollableBody={scrollableBody}
    >
      {children}
    </DialogFrame>
  );
}
