import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { NativeDialog } from './native-dialog';

/**
 * A titled dialog: a header with the title and a close button, a body and an optional footer.
 * `variant` is the class prefix: `modal` gives modal-box, modal-header…; `drawer` gives drawer-box….
 */
export function DialogFrame({
  variant,
  className,
  open,
  title,
  onClose,
  children,
  footer,
  closeOnBackdrop,
  testId,
  scrollableBody,
}: {
  variant: 'modal' | 'drawer';
  className: string;
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  closeOnBackdrop?: boolean;
  testId?: string;
  /**
   * The body may hold nothing focusable (an image, read-only details) while it scrolls: it takes
   * the keyboard's focus itself so the arrows and Page Down can scroll it (WCAG 2.1.1).
   */
  scrollableBody?: boolean;
}) {
  const titleId = useId();
  const { t } = useTranslation();
  return (
    <NativeDialog
      open={open}
      onClose={onClose}
      closeOnBackdrop={closeOnBackdrop}
      className={className}
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <div className={`${variant}-box`}>
        <header className={`${variant}-header`}>
          <h2 id={titleId} tabIndex={-1} data-dialog-title>
            {title}
          </h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label={t('actions.close')}>
            ×
          </button>
        </header>
        <div
          className={`${variant}-body`}
          {...(scrollableBody ? { tabIndex: 0, role: 'region', 'aria-labelledby': titleId } : {})}
        >
          {children}
        </div>
        {footer && <footer className={`${variant}-footer`}>{footer}</footer>}
      </div>
    </NativeDialog>
  );
}
