import { useTranslation } from 'react-i18next';
import type { AdminSubmissionDto } from '../../../src-server/contract/admin';
import { ProofThumb } from '../../components/proof-thumb';
import { useIsSelf } from '../../lib/auth';
import { formatDateTime } from '../../lib/format';
import { ReviewStatusBadge } from './badges';
import { columnHeaders, ReviewTable } from './review-table';

const COLUMNS = ['task', 'sender', 'date', 'status', 'evidence'] as const;

/** Task, sender, date, status, and the evidence with a view button (and a review button while pending). */
export function SubmissionsTable({
  items,
  onView,
  onReview,
}: {
  items: readonly AdminSubmissionDto[];
  onView(item: AdminSubmissionDto): void;
  onReview(item: AdminSubmissionDto): void;
}) {
  const { t } = useTranslation('adminReview');
  const isSelf = useIsSelf();
  const label = (key: (typeof COLUMNS)[number]) => t(`submissions.columns.${key}`);
  return (
    <ReviewTable className="ar-submissions-table" headers={columnHeaders(COLUMNS, label)}>
      {items.map((s) => (
        <tr key={s._id} data-testid="submission-row" data-status={s.status}>
          <td className="ar-cell-head ar-break">
            <span className="with-thumb">
              <ProofThumb item={s} title={s.task.title} onOpen={() => onView(s)} />
              <span>{s.task.title}</span>
            </span>
          </td>
          <td data-label={label('sender')} className="ar-break">
            <span className="ar-stack">
              <span>{s.user.name}</span>
              {s.user.email && <span className="muted small">{s.user.email}</span>}
            </span>
          </td>
          <td data-label={label('date')}>{formatDateTime(s.createdAt)}</td>
          <td data-label={label('status')}>
            <ReviewStatusBadge status={s.status} />
          </td>
          <td data-label={label('evidence')}>
            <div className="ar-actions">
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => onView(s)}
                aria-label={t('submissions.viewEvidence', { title: s.task.title })}
                data-testid="view-evidence"
              >
                {t('submissions.view')}
              </button>
              {s.status === 'pending' && !isSelf(s.user._id) && (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  onClick={() => onReview(s)}
                  aria-label={t('submissions.reviewItem', { title: s.task.title })}
                  data-testid="open-review"
                >
                  {t('submissions.review')}
                </button>
              )}
            </div>
          </td>
        </tr>
      ))}
    </ReviewTable>
  );
}
