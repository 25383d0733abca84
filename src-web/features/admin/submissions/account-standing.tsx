import type { AdminSubmissionDto } from '@contract/admin';
import { useTranslation } from 'react-i18next';
import { UserStatusBadge } from '../../../components/admin/badges';

type Worker = AdminSubmissionDto['user'];

/**
 * A banned or suspended worker's badge beside their proof, with the ban's reason: nothing for an
 * active account. The reviewer sees it before deciding (a banned account's proof cannot be approved).
 */
export function AccountStanding({ user }: { user: Worker }) {
  const { t } = useTranslation('adminLists');
  if (user.status === 'active') return null;
  return (
    <span className="al-standing" data-testid="account-standing" data-status={user.status}>
      <UserStatusBadge status={user.status} />
      {user.status === 'banned' && user.banReason && (
        <span className="muted small al-break">{t('standing.banReason', { reason: user.banReason })}</span>
      )}
    </span>
  );
}

/** Why a proof cannot be approved, or what applies to it, from its worker's standing; null when nothing does. */
export function standingNote(t: (key: string) => string, user: Worker): string | null {
  if (user.status === 'banned') return t('standing.bannedNoApprove');
  if (user.status === 'suspended') return t('standing.suspendedNote');
  return null;
}
