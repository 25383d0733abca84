import type { StatementDto } from '@contract/statement';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Pagination } from '../../components/pagination';
import { Skeleton } from '../../components/skeleton';
import { getData, getToken } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { formatDateTime, formatMoney } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';

const PAGE_SIZE = 20;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The statement as a CSV file: the bearer token rules out a plain link, so it is read here. */
async function downloadCsv(month: string, lang: string): Promise<void> {
  const params = new URLSearchParams({ lang: lang === 'en' ? 'en' : 'tr' });
  if (month) params.set('month', month);
  const token = getToken();
  const res = await fetch(`/api/users/me/statement.csv?${params}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new Error(String(res.status));
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `taskreward-statement-${month || 'all'}.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

/** /earnings: every reward, withdrawal, refund and adjustment with the balance after it, by month. */
export function EarningsPage() {
  const { t, i18n } = useTranslation(['profile', 'common']);
  usePageTitle(t('common:nav.earnings'));
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const month = MONTH.test(params.get('month') ?? '') ? (params.get('month') as string) : '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [failed, setFailed] = useState(false);
  const statement = useQuery({
    queryKey: ['profile', 'statement', month, page],
    queryFn: ({ signal }) =>
      getData<StatementDto>(
        `/users/me/statement?limit=${PAGE_SIZE}&page=${page}${month ? `&month=${month}` : ''}`,
        {
          signal,
        },
      ),
    placeholderData: keepPreviousData,
  });
  const setQuery = (next: { month?: string; page?: number }) => {
    const m = next.month ?? month;
    const p = next.page ?? 1;
    setParams({ ...(m ? { month: m } : {}), ...(p > 1 ? { page: String(p) } : {}) }, { replace: true });
  };
  const data = statement.data;
  return (
    <section className="container section earnings-page" data-testid="earnings-page">
      <header className="page-head">
        <h1>{t('common:nav.earnings')}</h1>
        <p className="muted">{t('statement.subtitle')}</p>
      </header>
      {user && (
        <dl className="card balance-grid earnings-summary">
          <div className="balance-item">
            <dt>{t('balance.current')}</dt>
            <dd data-testid="earnings-balance">{formatMoney(user.balance)}</dd>
          </div>
          <div className="balance-item">
            <dt>{t('balance.totalEarnings')}</dt>
            <dd>{formatMoney(user.totalEarnings)}</dd>
          </div>
          <div className="balance-item">
            <dt>{t('balance.pending')}</dt>
            <dd>{formatMoney(user.pendingBalance)}</dd>
          </div>
        </dl>
      )}
      <div className="earnings-tools">
        <label className="field earnings-month">
          <span className="field-label">{t('statement.month')}</span>
          <input
            type="month"
            className="input"
            value={month}
            onChange={(e) => setQuery({ month: e.target.value })}
            data-testid="statement-month"
          />
        </label>
        {month && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setQuery({ month: '' })}>
            {t('statement.allMonths')}
          </button>
        )}
        <button
          type="button"
          className="btn btn-outline btn-sm"
          data-testid="statement-csv"
          onClick={() => {
            setFailed(false);
            downloadCsv(month, i18n.language).catch(() => setFailed(true));
          }}
        >
          {t('statement.csv')}
        </button>
        <Link className="btn btn-primary btn-sm" to={paths.profile}>
          {t('balance.withdraw')}
        </Link>
      </div>
      {failed && (
        <p className="notice notice-error" role="alert">
          {t('statement.csvError')}
        </p>
      )}
      {statement.isPending ? (
        <Skeleton layout="cards" />
      ) : statement.isError || !data ? (
        <div className="card state-card" role="alert">
          <p className="notice notice-error">{t('loadError')}</p>
          <button type="button" className="btn btn-primary" onClick={() => statement.refetch()}>
            {t('common:actions.retry')}
          </button>
        </div>
      ) : (
        <>
          <dl className="earnings-totals" data-testid="statement-totals">
            <div>
              <dt>{t('statement.credits')}</dt>
              <dd className="plus">{formatMoney(data.totals.credits)}</dd>
            </div>
            <div>
              <dt>{t('statement.debits')}</dt>
              <dd>{formatMoney(data.totals.debits)}</dd>
            </div>
            <div>
              <dt>{t('statement.net')}</dt>
              <dd data-testid="statement-net">{formatMoney(data.totals.net)}</dd>
            </div>
          </dl>
          {data.items.length === 0 ? (
            <p className="card state-card" data-testid="statement-empty">
              {t('statement.empty')}
            </p>
          ) : (
            <div className="card table-wrap">
              <table className="table earnings-table" data-testid="statement-table">
                <caption className="sr-only">{t('statement.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('statement.date')}</th>
                    <th scope="col">{t('statement.movement')}</th>
                    <th scope="col" className="num">
                      {t('statement.amount')}
                    </th>
                    <th scope="col" className="num">
                      {t('statement.balanceAfter')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((r) => (
                    <tr key={r.id} data-testid="statement-row" data-kind={r.kind}>
                      <td>
                        <time dateTime={r.at}>{formatDateTime(r.at)}</time>
                      </td>
                      <td>
                        {t(`statement.kinds.${r.kind}`)}
                        {r.task && (
                          <>
                            {' · '}
                            <Link to={paths.task(r.task._id)}>{r.task.title}</Link>
                          </>
                        )}
                      </td>
                      <td className={`num${r.amount > 0 ? ' plus' : ''}`}>
                        {r.amount > 0 ? '+' : ''}
                        {formatMoney(r.amount)}
                      </td>
                      <td className="num">{formatMoney(r.balanceAfter)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination page={data.page} pages={data.pages} onPage={(p) => setQuery({ page: p })} />
        </>
      )}
    </section>
  );
}
