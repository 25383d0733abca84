import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { fetchLinkedAccounts, flagKeys } from './flags-api';

/**
 * The other accounts a flag names (shared payout, shared device, address burst): each a link to
 * its user page, named from the owner's linked accounts (the same query as the user page's).
 */
export function RelatedAccounts({ ownerId, ids }: { ownerId: string; ids: readonly string[] }) {
  const { t } = useTranslation('adminFraud');
  const linked = useQuery({
    queryKey: flagKeys.linked(ownerId),
    queryFn: ({ signal }) => fetchLinkedAccounts(ownerId, signal),
    enabled: ids.length > 0,
  });
  if (ids.length === 0) return null;
  const names = new Map((linked.data?.accounts ?? []).map((a) => [a._id, a]));
  return (
    <div className="flag-related" data-testid="flag-related-accounts">
      <span className="muted small">{t('related.accounts')}</span>
      <ul className="flag-related-list">
        {ids.map((id) => {
          const account = names.get(id);
          return (
            <li key={id}>
              <Link to={paths.adminUser(id)} data-testid="flag-related-account">
                {account ? account.name : t('related.account', { id: id.slice(-6) })}
              </Link>
              {account && <span className="muted small al-break"> {account.email}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
