import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/modal';

/**
 * The proof image of a submission. Its URL is signed for a few minutes only, so a failed load
 * asks the list for fresh URLs once before saying the image cannot be shown.
 */
export function ProofModal({
  url,
  title,
  onClose,
  onExpired,
}: {
  url: string | null;
  title: string;
  onClose(): void;
  onExpired(): void;
}) {
  const { t } = useTranslation('submissions');
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const [retried, setRetried] = useState(false);
  const failed = failedUrl !== null && failedUrl === url;
  return (
    <Modal open={url !== null} title={t('proof.title', { title })} onClose={onClose} size="lg">
      {url && !failed && (
        <img
          className="proof-image"
          src={url}
          alt={t('proof.alt', { title })}
          data-testid="proof-image"
          onError={() => {
            setFailedUrl(url);
            if (!retried) {
              setRetried(true);
              onExpired();
            }
          }}
        />
      )}
      {failed && <p className="notice notice-error">{t('proof.loadError')}</p>}
    </Modal>
  );
}
