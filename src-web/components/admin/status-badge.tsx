import type { ReviewStatus, TaskStatus } from '@contract/constants';
import { useTranslation } from 'react-i18next';

/** A submission, withdrawal or task status as a coloured, translated badge. */
export function StatusBadge({ status }: { status: ReviewStatus | TaskStatus }) {
  const { t } = useTranslation('admin');
  return <span className={`badge badge-${status}`}>{t(`statuses.${status}`)}</span>;
}
