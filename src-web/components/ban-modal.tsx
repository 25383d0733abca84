import { useTranslation } from 'react-i18next';
import { useAuth } from '../lib/auth';
import { useSettings } from '../lib/settings';
import { Modal } from './modal';

/** The banned-account modal: the reason and a link to support. */
export function BanModal() {
  const { banReason, clearBan } = useAuth();
  const settings = useSettings();
  const { t } = useTranslation();
  return (
    <Modal open={banReason !== null} title={t('ban.title')} onClose={clearBan} size="sm">
      <div className="ban-modal" data-testid="ban-modal">
        <p>{t('ban.message')}</p>
        <p className="ban-reason">
          <strong>{t('ban.reason')}:</strong> <span data-testid="ban-reason">{banReason}</span>
        </p>
        <a className="btn btn-primary" href={`mailto:${settings.contact.email}`}>
          {t('ban.contactSupport')}
        </a>
      </div>
    </Modal>
  );
}
