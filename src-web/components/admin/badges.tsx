import type { ReviewStatus, UserStatus } from '@contract/constants';
import { useTranslation } from 'react-i18next';

export function UserStatusBadge({ status }: { status: UserStatus }) {
  const { t } = useTranslation('adminLists');
  return (
    <span className={`badge badge-${status}`} data-testid="user-status" data-status={status}>
      {t(`userStatus.${status}`)}
    </span>
  );
}

export function ReviewStatusBadge({ status }: { status: ReviewStatus }) {
  const { t } = useTranslation('adminLists');
  return (
    <span className={`badge badge-${status}`} data-testid="review-status" data-status={status}>
      {t(`reviewStatus.${status}`)}
    </span>
  );
}
