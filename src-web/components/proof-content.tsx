import type { ProofType } from '@contract/constants';
import { useTranslation } from 'react-i18next';

/**
 * A proof that is not an image, shown as what it is: a link (opening in a new tab,
 * without the opener or the referrer), a code, a text, or the note that none was asked for.
 * Nothing for a screenshot (its image or thumbnail shows it). `compact` clips it for a list.
 */
export function ProofContent({
  item,
  compact = false,
}: {
  item: { proofType?: ProofType; proofUrl?: string | null; proofText?: string | null };
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const type = item.proofType ?? 'screenshot';
  if (type === 'screenshot') return null;
  const className = `proof-content proof-${type}${compact ? ' is-compact' : ''}`;
  return (
    <div className={className} data-testid="proof-content" data-type={type}>
      <span className="proof-kind">{t(`proof.kinds.${type}`)}</span>
      {type === 'link' && item.proofUrl && (
        <a
          href={item.proofUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="proof-url"
          data-testid="proof-link"
        >
          {item.proofUrl}
          <span className="sr-only"> {t('proof.newTab')}</span>
        </a>
      )}
      {type === 'code' && item.proofText && <code className="proof-code">{item.proofText}</code>}
      {type === 'text' && item.proofText && <p className="proof-text pre-line">{item.proofText}</p>}
      {type === 'none' && <span className="muted">{t('proof.noneAsked')}</span>}
    </div>
  );
}
