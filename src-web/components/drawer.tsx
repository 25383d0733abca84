import type { ReactNode } from 'react';
import { DialogFrame } from './dialog-frame';

/**
 * A drawer: a native modal <dialog> sliding in from the side, so focus stays inside,
 * Escape and a click on the backdrop close it, and the page behind is inert.
 */
export function Drawer({
  open,
  title,
  onClose,
  children,
  footer,
  testId,
}: {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
  return (
    <DialogFrame
      variant="drawer"
      className="drawer"
      open={open}
      title={title}
      onClose={onClose}
      footer={footer}
      testId={testId}
    >
      {children}
    </DialogFrame>
  );
}
