import type { SystemDto, SystemJobDto, SystemWarningDto } from '@contract/system';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '../../../components/skeleton';
import { getData } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { usePageTitle } from '../../../lib/page-title';

/** 1.2 GB, 340 MB: bytes in the reader's language. */
function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '–';
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(currentLanguage() === 'tr' ? 'tr-TR' : 'en-GB', {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

function useSystem() {
  return useQuery({
    queryKey: ['admin', 'system'],
    queryFn: ({ signal }) => getData<SystemDto>('/admin/system', { signal }),
    // the numbers move (uptime, queues): fresh each minute while the screen is open
    refetchInterval: 60_000,
  });
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="system-row" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = `system-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section className="card system-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl className="system-list">{children}</dl>
    </section>
  );
}

function Warning({ warning }: { warning: SystemWarningDto }) {
  const { t } = useTranslation('adminSystem');
  const text = (() => {
    switch (warning.code) {
      case 'disk_low':
        return t('warnings.diskLow', { percent: warning.freePercent });
      case 'backup_none':
        return t('warnings.backupNone');
      case 'backup_old':
        return t('warnings.backupOld', { count: warning.days });
      case 'backup_failing':
        return t('warnings.backupFailing', { error: warning.error });
      case 'job_failing':
        return t('warnings.jobFailing', {
          job: t(`jobs.names.${warning.job}`, { defaultValue: warning.job }),
          error: warning.error,
        });
      case 'queue_full':
        return t('warnings.queueFull', {
          queue: t(`queues.${warning.queue}`, { defaultValue: warning.queue }),
        });
      case 'mail_stuck':
        return t('warnings.mailStuck', { count: warning.minutes });
      case 'mail_failed':
        return t('warnings.mailFailed', { count: warning.count });
    }
  })();
  return <li>{text}</li>;
}

function uptime(seconds: number, t: (key: string, options?: Record<string, unknown>) => string): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return t('uptime.days', { days, hours });
  if (hours > 0) return t('uptime.hours', { hours, minutes });
  return t('uptime.minutes', { minutes });
}

function JobRow({ job }: { job: SystemJobDto }) {
  const { t } = useTranslation('adminSystem');
  const counts = Object.entries(job.counts)
    .map(
      ([k, v]) =>
        `${t(`jobs.counts.${k}`, { defaultValue: k })}: ${k === 'archiveBytes' ? formatBytes(v) : v}`,
    )
    .join(', ');
  return (
    <tr data-testid={`job-${job.name}`}>
      <th scope="row">{t(`jobs.names.${job.name}`, { defaultValue: job.name })}</th>
      <td>{formatDateTime(job.lastRunAt)}</td>
      <td>
        <span className={`badge ${job.lastOk ? 'badge-ok' : 'badge-err'}`}>
          {t(job.lastOk ? 'jobs.ok' : 'jobs.failed')}
        </span>
        {job.lastError && <span className="system-error"> {job.lastError}</span>}
      </td>
      <td>{counts || '–'}</td>
    </tr>
  );
}

/** /admin/system: how this server is doing, in an operator's terms. */
export function SystemPage() {
  const { t } = useTranslation('adminSystem');
  usePageTitle(t('title'));
  const query = useSystem();
  const data = query.data;

  return (
    <section className="admin-page system-page" aria-labelledby="system-title">
      <header className="admin-page-head">
        <div>
          <h1 id="system-title" data-testid="admin-title">
            {t('title')}
          </h1>
          <p className="muted">{t('subtitle')}</p>
        </div>
      </header>
      {query.isError && !data ? (
        <div className="notice notice-error" role="alert">
          <p>{t('loadError')}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void query.refetch()}>
            {t('common:actions.retry')}
          </button>
        </div>
      ) : !data ? (
        <Skeleton layout="page" />
      ) : (
        <div className="system-grid">
          {data.warnings.length > 0 ? (
            <div
              className="notice notice-warning system-warnings"
              role="status"
              data-testid="system-warnings"
            >
              <h2>{t('warnings.title')}</h2>
              <ul>
                {data.warnings.map((w) => (
                  <Warning key={`${w.code}-${'job' in w ? w.job : ''}`} warning={w} />
                ))}
              </ul>
            </div>
          ) : (
            <p className="notice notice-success" data-testid="system-ok">
              {t('warnings.none')}
            </p>
          )}
          <Card title={t('server.title')}>
            <Row label={t('server.version')} testId="system-version">
              {data.version}
            </Row>
            <Row label={t('server.node')}>{data.nodeVersion}</Row>
            <Row label={t('server.engine')} testId="system-engine">
              {t(`server.engines.${data.engine}`)}
            </Row>
            <Row label={t('server.nodes')}>{data.nodes.join(', ') || data.nodeName}</Row>
            <Row label={t('server.uptime')}>{uptime(data.uptimeSeconds, t)}</Row>
          </Card>
          <Card title={t('storage.title')}>
            <Row label={t('storage.database')}>{formatBytes(data.databaseBytes)}</Row>
            <Row label={t('storage.disk')} testId="system-disk">
              {data.disk
                ? t('storage.diskFree', {
                    free: formatBytes(data.disk.freeBytes),
                    total: formatBytes(data.disk.totalBytes),
                  })
                : '–'}
            </Row>
            <Row label={t('storage.files')}>
              <span className="system-path">{data.files.description}</span>
            </Row>
          </Card>
          <Card title={t('backup.title')}>
            <Row label={t('backup.schedule')} testId="system-backup-schedule">
              {data.backup.mode === 'scheduled'
                ? t('backup.every', { hours: data.backup.intervalHours, keep: data.backup.keep })
                : t(`backup.modes.${data.backup.mode}`)}
            </Row>
            <Row label={t('backup.last')} testId="system-backup-last">
              {data.backup.last
                ? `${formatDateTime(data.backup.last.at)} · ${formatBytes(data.backup.last.bytes)}`
                : t('backup.never')}
            </Row>
            <Row label={t('backup.result')}>
              {data.backup.lastRun
                ? t(data.backup.lastRun.lastOk ? 'jobs.ok' : 'jobs.failed')
                : t('backup.noRunYet')}
            </Row>
            <Row label={t('backup.folder')}>
              <span className="system-path">{data.backup.folder}</span>
            </Row>
          </Card>
          <section className="card system-card system-wide" aria-labelledby="system-jobs">
            <h2 id="system-jobs">{t('jobs.title')}</h2>
            {data.jobs.length === 0 ? (
              <p className="muted">{t('jobs.none')}</p>
            ) : (
              <div className="system-table-wrap">
                <table className="system-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('jobs.name')}</th>
                      <th scope="col">{t('jobs.lastRun')}</th>
                      <th scope="col">{t('jobs.result')}</th>
                      <th scope="col">{t('jobs.done')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.jobs.map((job) => (
                      <JobRow key={job.name} job={job} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <p className="muted system-note">{t('jobs.note', { node: data.nodeName })}</p>
          </section>
          <Card title={t('mail.title')}>
            <Row label={t('mail.smtp')} testId="system-mail-smtp">
              {t(data.mail.configured ? 'mail.configured' : 'mail.notConfigured')}
            </Row>
            <Row label={t('mail.pending')} testId="system-mail-pending">
              {data.mail.oldestPendingAt
                ? t('mail.pendingSince', {
                    count: data.mail.pending,
                    since: formatDateTime(data.mail.oldestPendingAt),
                  })
                : t('mail.noneWaiting')}
            </Row>
            <Row label={t('mail.failed')} testId="system-mail-failed">
              {data.mail.failedLastWeek}
            </Row>
          </Card>
          <Card title={t('queues.title')}>
            {data.queues.map((q) => (
              <Row key={q.name} label={t(`queues.${q.name}`)} testId={`queue-${q.name}`}>
                {t('queues.state', {
                  running: q.running,
                  concurrency: q.concurrency,
                  waiting: q.waiting,
                  maxWaiting: q.maxWaiting,
                })}
              </Row>
            ))}
          </Card>
        </div>
      )}
    </section>
  );
}
