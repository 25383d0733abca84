import type { AdminSubmissionDto } from '@contract/admin';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { FlagBadge } from '../../../components/admin/flag-badge';
import { StatusBadge } from '../../../components/admin/status-badge';
import { EmailText } from '../../../components/email-text';
import { ProofThumb } from '../../../components/proof-thumb';
import { formatDateTime, formatMoney } from '../../../lib/format';

/** The 5 newest submissions of any status, with a link to the review screen. */
export function RecentSubmissions({ items }: { items: AdminSubmissionDto[] }) {
  const { t } = useTranslation('admin');
  return (
    <section className="card admin-panel" aria-labelledby="recent-submissions-title">
      <div className="admin-panel-head">
        <h2 id="recent-submissions-title">{t('dashboard.recent.title')}</h2>
        <Link to={paths.adminSubmissions}>{t('dashboard.recent.viewAll')}</Link>
      </div>
      {items.length === 0 ? (
        <p className="muted">{t('dashboard.recent.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack" data-testid="recent-submissions">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.recent.task')}</th>
                <th scope="col">{t('dashboard.recent.user')}</th>
                <th scope="col">{t('dashboard.recent.date')}</th>
                <th scope="col">{t('dashboard.recent.reward')}</th>
                <th scope="col">{t('dashboard.recent.status')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={s._id}>
                  <td className="cell-title cell-head">
                    <span className="with-thumb">
                      <ProofThumb item={s} title={s.task.title} />
                      <Link to={paths.adminTaskEdit(s.task._id)}>{s.task.title}</Link>
                    </span>
                  </td>
                  <td data-label={t('dashboard.recent.user')}>
                    <div>
                      <Link to={paths.adminUser(s.user._id)}>{s.user.name}</Link>
                      <div className="muted small">
                        <EmailText email={s.user.email} />
                      </div>
                    </div>
                  </td>
                  <td className="nowrap" data-label={t('dashboard.recent.date')}>
                    {formatDateTime(s.createdAt)}
                  </td>
                  <td className="nowrap" data-label={t('dashboard.recent.reward')}>
                    {formatMoney(s.reward)}
                  </td>
                  <td data-label={t('dashboard.recent.status')}>
                    <div className="al-badges">
                      <StatusBadge status={s.status} />
                      <FlagBadge flags={s.flags} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
