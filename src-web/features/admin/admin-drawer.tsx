import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminBrand, AdminMenu } from './admin-menu';

/**
 * The admin menu at phone width: a native modal <dialog> sliding in from the left, so focus
 * stays inside and Escape or a click on the backdrop closes it. Choosing a page closes it too.
 */
export function AdminDrawer({
  open,
  onClose,
  onNotify,
}: {
  open: boolean;
  onClose(): void;
  onNotify(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation('admin');
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      id="admin-drawer"
      className="admin-drawer"
      aria-label={t('menu.label')}
      data-testid="admin-drawer"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      {open && (
        <div className="admin-drawer-box">
          <div className="admin-drawer-head">
            <AdminBrand onNavigate={onClose} />
            <button
              type="button"
              className="icon-btn admin-drawer-close"
              onClick={onClose}
              aria-label={t('menu.close')}
            >
              ×
            </button>
          </div>
          <AdminMenu
            onNavigate={onClose}
            onNotify={() => {
              onClose();
              onNotify();
            }}
          />
        </div>
      )}
    </dialog>
  );
}
