import type { AdminUserSummaryDto } from '@contract/admin';
import { AUDIT_ACTIONS, AUDIT_TARGETS, type AuditEntryDto, type AuditPerson } from '@contract/audit';
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
import { EmailText } from '../../../components/email-text';
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

/** Fields whose values are codes with words of their own (`audit.values.<field>.<code>`). */
const CODED = new Set([
  'status',
  'role',
  'appeal',
  'notificationType',
  'kind',
  'flag',
  'difficulty',
  'category',
  'requiredProof',
  'target',
  'paymentMethod',
  'rejectionReason',
]);

/** An account by name with a link to it, or "deleted user". */
function Person({ person }: { person: AuditPerson }) {
  const { t } = useTranslation('adminLists');
  if (person.deleted || !person.name) return <span className="muted">{t('audit.unknownActor')}</span>;
  return (
    <Link to={paths.adminUser(person._id)} title={person.email ?? undefined}>
      {person.name}
    </Link>
  );
}

function Value({ field, value, people }: { field: string; value: unknown; people: AuditEntryDto['people'] }) {
  const { t } = useTranslation('adminLists');
  const empty = value === null || value === undefined || value === '';
  if (empty || (Array.isArray(value) && value.length === 0))
    return <span className="muted">{t('audit.none')}</span>;
  if (typeof value === 'boolean') return <>{t(value ? 'audit.yes' : 'audit.no')}</>;
  if (field === 'user' && typeof value === 'string' && people[value])
    return <Person person={people[value]} />;
  // a code reads in words; one the screen does not know yet stays as it is, readable
  if (typeof value === 'string' && CODED.has(field))
    return <>{t(`auditWords.values.${field}.${value}`, { defaultValue: value })}</>;
  if (typeof value === 'number' && MONEY.has(field)) return <>{formatMoney(value / 100)}</>;
  // a list of texts (a task's steps, the payout methods) reads as one line
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return <>{value.join(', ')}</>;
  return <>{typeof value === 'string' ? value : JSON.stringify(value)}</>;
}

/** A field the screen has no words for yet, readable: "payoutMethod" → "payout method". */
function readable(field: string): string {
  return field
    .replace(/[._]/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** "field: before → after" for a change, "field: value" for a fact of the action. */
function Changes({
  changes,
  people,
}: {
  changes: AuditEntryDto['changes'];
  people: AuditEntryDto['people'];
}) {
  const { t } = useTranslation('adminLists');
  const entries = Object.entries(changes);
  if (entries.length === 0) return null;
  return (
    <dl className="audit-changes">
      {entries.map(([field, value]) => (
        <div key={field}>
          {/* the API's name of the field (a setting as section.field), in the reader's language */}
          <dt title={field}>{t(`audit.fields.${field}`, { defaultValue: readable(field) })}</dt>
          <dd>
            {Array.isArray(value) && value.length === 2 ? (
              <>
                <Value field={field} value={value[0]} people={people} /> <span aria-hidden="true">→</span>
                <span className="sr-only">→</span> <Value field={field} value={value[1]} people={people} />
              </>
            ) : (
              <Value field={field} value={value} people={people} />
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
  const { t } = useTranslation('adminLists');
  if (!actor) return <span className="muted">{t('audit.system')}</span>;
  const name = actor.name ?? t('audit.unknownActor');
  return (
    <span className="audit-actor" data-testid="audit-actor">
      {actor.deleted ? <span>{name}</span> : <Link to={paths.adminUser(actor._id)}>{name}</Link>}
      {actor.deleted && <span className="badge badge-muted">{t('audit.deletedActor')}</span>}
      {actor.email && <EmailText email={actor.email} className="audit-actor-email" />}
    </span>
  );
}

/**
 * What the row is about, by name as it is now: a user by name (their page), a task by its title
 * (its edit page), a proof by its worker and task (the worker's proofs), a payout by its worker
 * and amount. A deleted one says so; one whose row is gone keeps only its kind.
 */
function Target({ target }: { target: AuditEntryDto['target'] }) {
  const { t } = useTranslation('adminLists');
  const type = t(`audit.targets.${target.type}`, { defaultValue: target.type });
  if (!target.id) return <>{type}</>;
  const task = target.task;
  const taskPart = task ? (
    task.deleted || !task.title ? (
      <span className="muted">
        {task.title ?? t('auditWords.deletedTask')}{' '}
        <span className="badge badge-muted">{t('audit.deletedActor')}</span>
      </span>
    ) : (
      <Link to={paths.adminTaskEdit(task._id)}>{task.title}</Link>
    )
  ) : null;
  return (
    <span className="audit-target" data-testid="audit-target" title={target.id}>
      <span className="audit-target-type">{type}</span>
      {target.gone && target.type !== 'user' && target.type !== 'task' ? (
        <span className="muted">{t('auditWords.goneTarget')}</span>
      ) : null}
      {target.user ? <Person person={target.user} /> : null}
      {taskPart}
      {target.amount !== null ? <span>{formatMoney(target.amount / 100)}</span> : null}
    </span>
  );
}

/** /admin/audit: every admin action, newest first, by admin, action, target and days. */
export function AuditPage() {
  const { t } = useTranslation('adminLists');
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
    <section className="al-page" aria-labelledby="audit-title">
      <ListPageHead id="audit-title" title={t('audit.title')} subtitle={t('audit.subtitle')} />
      <form
        className="al-toolbar audit-filters"
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
          <p className="card al-empty" data-testid="audit-empty">
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
                    <td data-label={label('at')} className="al-nowrap">
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
                    <td data-label={label('changes')} className="al-break">
                      <Changes changes={row.changes} people={row.people ?? {}} />
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
