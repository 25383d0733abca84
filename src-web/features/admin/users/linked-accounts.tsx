import type { LinkedAccountDto } from '@contract/fraud';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { UserStatusBadge } from '../../../components/admin/badges';
import { FlagList } from '../../../components/admin/flag-list';
import { fetchLinkedAccounts, flagKeys } from '../../../components/admin/flags-api';
import { LoadError } from '../../../components/admin/list-parts';
import { columnHeaders, ReviewTable } from '../../../components/admin/review-table';
import { EmailText } from '../../../components/email-text';
import { formatAccountNumber, formatDate } from '../../../lib/format';

const COLUMNS = ['account', 'status', 'links', 'registered'] as const;

/**
 * The user page's "Linked accounts": the other accounts that withdrew to one of this
 * account's payout accounts, share its device or registered from its address, each with how,
 * and this account's own signals (shared device, address burst) with "Dismiss".
 */
export function LinkedAccounts({ userId }: { userId: string }) {
  const { t } = useTranslation('adminFraud');
  const linked = useQuery({
    queryKey: flagKeys.linked(userId),
    queryFn: ({ signal }) => fetchLinkedAccounts(userId, signal),
  });
  const col = (key: (typeof COLUMNS)[number]) => t(`linked.columns.${key}`);
  return (
    <section className="card al-history" aria-labelledby="user-linked-title" data-testid="user-linked">
      <h2 id="user-linked-title">{t('linked.title')}</h2>
      {linked.isPending ? (
        <p className="muted">{t('common:status.loading')}</p>
      ) : linked.isError ? (
        <LoadError
          message={t('linked.loadError')}
          onRetry={() => linked.refetch()}
          testId="user-linked-error"
        />
      ) : (
        <>
          {linked.data.flags.length > 0 && (
            <div className="flag-account">
              <h3 className="flag-section-title">{t('linked.flags')}</h3>
              <FlagList flags={linked.data.flags} ownerId={userId} />
            </div>
          )}
          {linked.data.accounts.length === 0 ? (
            <p className="muted" data-testid="user-linked-empty">
              {t('linked.empty')}
            </p>
          ) : (
            <ReviewTable testId="user-linked-table" headers={columnHeaders(COLUMNS, col)}>
              {linked.data.accounts.map((a) => (
                <tr key={a._id} data-testid="linked-account" data-id={a._id}>
                  <td className="al-cell-head al-break">
                    <span className="al-stack">
                      <Link to={paths.adminUser(a._id)} data-testid="linked-account-name">
                        {a.name}
                      </Link>
                      <EmailText email={a.email} className="muted small" />
                    </span>
                  </td>
                  <td data-label={col('status')}>
                    <span className="al-badges">
                      <UserStatusBadge status={a.status} />
                      {a.deleted && <span className="badge badge-muted">{t('linked.deleted')}</span>}
                    </span>
                  </td>
                  <td data-label={col('links')}>
                    <LinkList links={a.links} />
                  </td>
                  <td data-label={col('registered')}>{formatDate(a.createdAt)}</td>
                </tr>
              ))}
            </ReviewTable>
          )}
        </>
      )}
    </section>
  );
}

/** How an account is linked: the same payout account (its number), device or registration address. */
function LinkList({ links }: { links: LinkedAccountDto['links'] }) {
  const { t } = useTranslation('adminFraud');
  return (
    <ul className="linked-ways">
      {links.map((l) => (
        <li key={`${l.via}:${l.detail}`} className="al-stack" data-testid="linked-way" data-via={l.via}>
          <span>{t(`linked.via.${l.via}`)}</span>{' '}
          {l.via === 'payout' ? (
            <span className="muted small al-mono al-account">{formatAccountNumber(l.detail)}</span>
          ) : (
            <span className="muted small al-mono al-break">{l.detail}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
