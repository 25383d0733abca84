import type { AdminUserSummaryDto } from '@contract/admin';
import { AUDIT_ACTIONS, AUDIT_TARGETS, type AuditEntryDto } from '@contract/audit';
import type { Page } from '@contract/types';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { DateRangeFields } from '../../../components/admin/date-range-fields';
import { ListBody } from '../../../components/admin/list-body';
import { ListPageHead, RangeText } from '../../../components/admin/list-parts';
import { columnHeaders, ReviewTable } from '../../../components/admin/review-table';
import { useListPage } from '../../../components/admin/use-list-page';
import { getData } from '../../../lib/api';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { usePageTitle } from '../../../lib/page-title';
import { type AuditListState, auditSearch, isReversed, readAuditList } from './audit-query';

const COLUMNS = ['at', 'actor', 'action', 'target', 'changes'] as const;
/** Fields the server logs in kuruş. */
const MONEY = new Set(['reward', 'amount', 'balance', 'delta']);

const fetchAudit = (state: AuditListState, signal: AbortSignal) =>
  getData<Page<AuditEntryDto>>(`/admin/audit?${auditSearch(state)}`, { signal });

function useAdmins() {
  return useQuery({
    queryKey: ['admin', 'audit', 'admins'],
    queryFn: ({ signal }) =>
      getData<Page<AdminUserSummaryDto>>('/admin/users?status=admin&limit=100', { signal }),
    staleTime: 60_000,
  });
}

function Value({ field, value }: { field: string; value: unknown }) {
  const { t } = useTranslation('adminReview');
  const empty = value === null || value === undefined || value === '';
  if (empty || (Array.isArray(value) && value.length === 0))
    return <span className="muted">{t('audit.none')}</span>;
  if (typeof value === 'boolean') return <>{t(value ? 'audit.yes' : 'audit.no')}</>;
  if (typeof value === 'number' && MONEY.has(field)) return <>{formatMoney(value / 100)}</>;
  // a list of texts (a task's steps, the payout methods) reads as one line
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return <>{value.join(', ')}</>;
  return <>{typeof value === 'string' ? value : JSON.stringify(value)}</>;
}

/** "field: before → after" for a change, "field: value" for a fact of the action. */
function Changes({ changes }: { changes: AuditEntryDto['changes'] }) {
  const { t } = useTranslation('adminReview');
  const entries = Object.entries(changes);
  if (entries.length === 0) return null;
  return (
    <dl className="audit-changes">
      {entries.map(([field, value]) => (
        <div key={field}>
          {/* the API's name of the field (a setting as section.field), in the reader's language */}
          <dt title={field}>{t(`audit.fields.${field}`, { defaultValue: field })}</dt>
          <dd>
            {Array.isArray(value) && value.length === 2 ? (
              <>
                <Value field={field} value={value[0]} /> <span aria-hidden="true">→</span>
                <span className="sr-only">→</span> <Value field={field} value={value[1]} />
              </>
            ) : (
              <Value field={field} value={value} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Who did it, as the row recorded them: a rename since changes nothing here, and a deleted
 * admin keeps their name and email, marked as deleted (their account page is gone).
 */
function Actor({ actor }: { actor: AuditEntryDto['actor'] }) {
  const { t } = useTranslation('adminReview');
  if (!actor) return <span className="muted">{t('audit.system')}</span>;
  const name = actor.name ?? t('audit.unknownActor');
  return (
    <span className="audit-actor" data-testid="audit-actor">
      {actor.deleted ? <span>{name}</span> : <Link to={paths.adminUser(actor._id)}>{name}</Link>}
      {actor.deleted && <span className="badge badge-muted">{t('audit.deletedActor')}</span>}
      {actor.email && <span className="audit-actor-email">{actor.email}</span>}
    </span>
  );
}

function Target({ target }: { target: AuditEntryDto['target'] }) {
  const { t } = useTranslation('adminReview');
  const type = t(`audit.targets.${target.type}`, { defaultValue: target.type });
  if (!target.id) return <>{type}</>;
  const short = `${target.id.slice(0, 8)}…`;
  const link =
    target.type === 'user'
      ? paths.adminUser(target.id)
      : target.type === 'task'
        ? paths.adminTaskEdit(target.id)
        : null;
  return (
    <span className="audit-target">
      {type}{' '}
      {link ? (
        <Link to={link} title={target.id}>
          {short}
        </Link>
      ) : (
        <code title={target.id}>{short}</code>
      )}
    </span>
  );
}

/** /admin/audit: every admin action, newest first, by admin, action, target and days. */
export function AuditPage() {
  const { t } = useTranslation('adminReview');
  usePageTitle(t('audit.title'));
  const { state, list, patch } = useListPage<AuditListState, Page<AuditEntryDto>>({
    read: readAuditList,
    search: auditSearch,
    queryKey: (s) => ['admin', 'audit', s],
    fetchList: fetchAudit,
    enabled: (s) => !isReversed(s),
  });
  const admins = useAdmins();
  const label = (key: (typeof COLUMNS)[number]) => t(`audit.columns.${key}`);
  return (
    <section className="ar-page" aria-labelledby="audit-title">
      <ListPageHead id="audit-title" title={t('audit.title')} subtitle={t('audit.subtitle')} />
      <form
        className="ar-toolbar audit-filters"
        aria-label={t('audit.filters.label')}
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="field">
          <label htmlFor="audit-actor">{t('audit.filters.actor')}</label>
          <select
            id="audit-actor"
            value={state.actor}
            onChange={(e) => patch({ actor: e.target.value, page: 1 })}
          >
            <option value="">{t('audit.filters.anyone')}</option>
            {admins.data?.items.map((a) => (
              <option key={a._id} value={a._id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-action">{t('audit.filters.action')}</label>
          <select
            id="audit-action"
            value={state.action}
            onChange={(e) =>
              patch({ action: AUDIT_ACTIONS.find((a) => a === e.target.value) ?? '', page: 1 })
            }
          >
            <option value="">{t('audit.filters.anyAction')}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {t(`audit.actions.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-target">{t('audit.filters.target')}</label>
          <select
            id="audit-target"
            value={state.targetType}
            onChange={(e) =>
              patch({
                targetType: AUDIT_TARGETS.find((a) => a === e.target.value) ?? '',
                targetId: '',
                page: 1,
              })
            }
          >
            <option value="">{t('audit.filters.anyTarget')}</option>
            {AUDIT_TARGETS.map((a) => (
              <option key={a} value={a}>
                {t(`audit.targets.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <DateRangeFields
          id="audit"
          from={state.from}
          to={state.to}
          labels={{
            from: t('audit.filters.from'),
            to: t('audit.filters.to'),
            reversed: t('audit.filters.reversed'),
          }}
          onChange={(change) => patch({ ...change, page: 1 })}
        />
      </form>
      {state.targetId && (
        <p className="audit-scope" data-testid="audit-scope">
          {t('audit.scope', { type: t(`audit.targets.${state.targetType || 'user'}`), id: state.targetId })}{' '}
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => patch({ targetId: '', targetType: '', page: 1 })}
          >
            {t('audit.clearScope')}
          </button>
        </p>
      )}
      <ListBody
        list={list}
        errorText={t('audit.loadError')}
        errorTestId="audit-error"
        empty={
          <p className="card ar-empty" data-testid="audit-empty">
            {t('audit.empty')}
          </p>
        }
        page={state.page}
        onPage={(page) => patch({ page })}
      >
        {(data) => (
          <>
            <RangeText
              page={data.page}
              limit={data.limit}
              total={data.total}
              textKey="audit.range"
              testId="audit-range"
            />
            <div aria-busy={list.isFetching}>
              <ReviewTable
                className="audit-table"
                testId="audit-table"
                headers={columnHeaders(COLUMNS, label)}
              >
                {data.items.map((row) => (
                  <tr key={row.id} data-testid="audit-row" data-action={row.action}>
                    <td data-label={label('at')} className="ar-nowrap">
                      <time dateTime={row.at}>{formatDateTime(row.at)}</time>
                    </td>
                    <td data-label={label('actor')}>
                      <Actor actor={row.actor} />
                    </td>
                    <td data-label={label('action')}>
                      <span className="badge badge-muted" title={row.action}>
                        {t(`audit.actions.${row.action}`, { defaultValue: row.action })}
                      </span>
                    </td>
                    <td data-label={label('target')}>
                      <Target target={row.target} />
                    </td>
                    <td data-label={label('changes')} className="ar-break">
                      <Changes changes={row.changes} />
                    </td>
                  </tr>
                ))}
              </ReviewTable>
            </div>
          </>
        )}
      </ListBody>
    </section>
  );
}
