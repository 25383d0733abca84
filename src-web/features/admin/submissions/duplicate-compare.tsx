import type { AdminSubmissionDto } from '@contract/admin';
import type { FlagDto } from '@contract/fraud';
import { useQueries } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { ReviewStatusBadge } from '../../../components/admin/badges';
import { fetchAdminSubmission, flagKeys } from '../../../components/admin/flags-api';
import { formatDateTime } from '../../../lib/format';

/** The nearest matches shown beside a duplicate (the flag names up to ten, nearest first). */
export const SHOWN_MATCHES = 3;

/**
 * A duplicate_proof flag's proof beside its nearest matches: each picture (its thumbnail, a link
 * to the full proof in a new tab), its worker (to their user page), its date, its task and its
 * status, in columns that wrap on a narrow screen.
 */
export function DuplicateCompare({ item, flag }: { item: AdminSubmissionDto; flag: FlagDto }) {
  const { t } = useTranslation('adminFraud');
  const ids = flag.related.slice(0, SHOWN_MATCHES);
  const matches = useQueries({
    queries: ids.map((id) => ({
      queryKey: flagKeys.submission(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchAdminSubmission(id, signal),
      staleTime: 60_000,
    })),
  });
  return (
    <div className="dup" data-testid="dup-compare">
      {flag.related.length > SHOWN_MATCHES && (
        <p className="muted small">
          {t('compare.nearest', { shown: SHOWN_MATCHES, count: flag.related.length })}
        </p>
      )}
      <div className="dup-grid">
        <ProofCard submission={item} heading={t('compare.this')} current />
        {ids.map((id, i) => {
          const match = matches[i];
          const heading = t('compare.match', { n: i + 1 });
          if (match?.data) return <ProofCard key={id} submission={match.data} heading={heading} />;
          return (
            <div key={id} className="dup-card" data-testid="dup-card" data-id={id}>
              <h4 className="dup-heading">{heading}</h4>
              <p className="muted small" role={match?.isError ? 'alert' : undefined}>
                {match?.isError ? t('compare.loadError') : t('common:status.loading')}
              </p>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function ProofCard({
  submission: s,
  heading,
  current = false,
}: {
  submission: AdminSubmissionDto;
  heading: string;
  current?: boolean;
}) {
  const { t } = useTranslation('adminFraud');
  const headingId = useId();
  const thumb = s.proofThumbnailUrl ?? s.proofImageUrl;
  return (
    <article
      className={`dup-card${current ? ' is-current' : ''}`}
      aria-labelledby={headingId}
      data-testid="dup-card"
      data-id={s._id}
    >
      <h4 id={headingId} className="dup-heading">
        {heading}
      </h4>
      {thumb ? (
        <a
          className="dup-thumb"
          href={s.proofImageUrl ?? thumb}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="dup-thumb"
        >
          <img
            src={thumb}
            alt={t('compare.alt', { name: s.user.name, title: s.task.title })}
            decoding="async"
          />
        </a>
      ) : (
        <p className="muted small">{t('compare.noImage')}</p>
      )}
      <dl className="dup-info">
        <div>
          <dt>{t('compare.worker')}</dt>
          <dd className="al-break">
            <Link to={paths.adminUser(s.user._id)} data-testid="dup-worker">
              {s.user.name}
            </Link>
          </dd>
        </div>
        <div>
          <dt>{t('compare.date')}</dt>
          <dd data-testid="dup-date">{formatDateTime(s.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('compare.task')}</dt>
          <dd className="al-break">
            <Link to={paths.adminTaskEdit(s.task._id)} data-testid="dup-task">
              {s.task.title}
            </Link>
          </dd>
        </div>
        <div>
          <dt>{t('compare.status')}</dt>
          <dd>
            <ReviewStatusBadge status={s.status} />
          </dd>
        </div>
      </dl>
    </article>
  );
}
