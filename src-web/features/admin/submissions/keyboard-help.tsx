import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { REVIEW_KEYS } from './review-keys';

/** The review queue's keys (opened with `?`). */
export function KeyboardHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('adminLists');
  return (
    <Modal open={open} title={t('keys.title')} onClose={onClose} size="sm">
      <dl className="al-keys" data-testid="keyboard-help">
        {REVIEW_KEYS.map(({ keys, command }) => (
          <div key={command}>
            <dt>
              {keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && ` ${t('keys.or')} `}
                  <kbd>{k === 'Space' ? t('keys.space') : k}</kbd>
                </span>
              ))}
            </dt>
            <dd>{t(`keys.commands.${command}`)}</dd>
          </div>
        ))}
        <div>
          <dt>
            <kbd>Esc</kbd>
          </dt>
          <dd>{t('keys.commands.close')}</dd>
        </div>
      </dl>
    </Modal>
  );
}
