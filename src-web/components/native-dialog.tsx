import { type ComponentPropsWithoutRef, type ReactNode, useEffect, useRef } from 'react';

type DialogAttributes = Omit<
  ComponentPropsWithoutRef<'dialog'>,
  'open' | 'onCancel' | 'onClick' | 'onKeyDown' | 'children'
>;

export interface NativeDialogProps extends DialogAttributes {
  open: boolean;
  onClose(): void;
  children: ReactNode;
  /** Closes on a click outside the box (default true). */
  closeOnBackdrop?: boolean;
}

/**
 * A native modal <dialog> kept in step with `open`: focus stays inside, Escape closes it,
 * a click on the backdrop closes it too, and its content is only rendered while open.
 * Modals and drawers are built on it.
 */
export function NativeDialog({
  open,
  onClose,
  children,
  closeOnBackdrop = true,
  ...rest
}: NativeDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // the browser focuses the first button (the close ×); start at the first field instead,
      // or at the title when there is none, so a screen reader reads the dialog from its top
      const body = dialog.querySelector('.modal-body, .drawer-body') ?? dialog;
      const start =
        body.querySelector<HTMLElement>(
          '[data-autofocus], input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])',
        ) ?? dialog.querySelector<HTMLElement>('[data-dialog-title]');
      start?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      {...rest}
      ref={ref}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (closeOnBackdrop && e.target === ref.current) onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      {open && children}
    </dialog>
  );
}
