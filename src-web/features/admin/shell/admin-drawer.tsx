import { useTranslation } from 'react-i18next';
import { NativeDialog } from '../../../components/native-dialog';
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
  const { t } = useTranslation('admin');
  return (
    <NativeDialog
      open={open}
      onClose={onClose}
      id="admin-drawer"
      className="admin-drawer"
      aria-label={t('menu.label')}
      data-testid="admin-drawer"
    >
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
    </NativeDialog>
  );
}
