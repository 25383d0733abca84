import type { AdminSubmissionDto } from '@contract/admin';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FlagList } from '../../../components/admin/flag-list';
import { openFlags } from '../../../components/admin/flags-api';
import { DuplicateCompare } from './duplicate-compare';

/**
 * The evidence modal's fraud signals: the proof's flags and its worker's account's,
 * a duplicate shown beside its matches. Nothing when the item has none.
 */
export function EvidenceFlags({ item }: { item: AdminSubmissionDto }) {
  const { t } = useTranslation('adminFraud');
  const id = useId();
  const flags = item.flags ?? [];
  if (flags.length === 0) return null;
  const open = openFlags(flags).length;
  return (
    <section className="al-evidence-flags" aria-labelledby={id} data-testid="evidence-flags">
      <h3 id={id} className="flag-section-title">
        {t('title')}{' '}
        <span className="muted small">{open > 0 ? t('openCount', { count: open }) : t('allDismissed')}</span>
      </h3>
      <FlagList
        flags={flags}
        ownerId={item.user._id}
        extra={(f) => (f.kind === 'duplicate_proof' ? <DuplicateCompare item={item} flag={f} /> : null)}
      />
    </section>
  );
}
