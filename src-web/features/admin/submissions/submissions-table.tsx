import type { AdminSubmissionDto } from '@contract/admin';
import { useTranslation } from 'react-i18next';
import { ReviewStatusBadge } from '../../../components/admin/badges';
import {
  SelectCell,
  type Selection,
  SelectPage,
  useSelectColumn,
} from '../../../components/admin/bulk-review';
import { FlagBadge } from '../../../components/admin/flag-badge';
import { columnHeaders, ReviewTable } from '../../../components/admin/review-table';
import { ProofContent } from '../../../components/proof-content';
import { ProofThumb } from '../../../components/proof-thumb';
import { formatDateTime } from '../../../lib/format';
import { AccountStanding } from './account-standing';

const COLUMNS = ['task', 'sender', 'date', 'status', 'evidence'] as const;

/**
 * Task, sender, date, status, and the evidence with a view button (and a review button while
 * pending). A pending item the admin may review has a tick box for a bulk review; the queue's
 * current row (moved with j/k) is marked and holds the focus.
 */
export function SubmissionsTable({
  items,
  reviewable,
  selection,
  currentId,
  onCurrent,
  onView,
  onReview,
}: {
  items: readonly AdminSubmissionDto[];
  reviewable(item: AdminSubmissionDto): boolean;
  selection: Selection;
  currentId: string | null;
  onCurrent(id: string): void;
  onView(item: AdminSubmissionDto): void;
  onReview(item: AdminSubmissionDto): void;
}) {
  const { t } = useTranslation('adminReview');
  const label = (key: (typeof COLUMNS)[number]) => t(`submissions.columns.${key}`);
  const select = useSelectColumn();
  const selectable = items.filter(reviewable).map((x) => x._id);
  return (
    <>
      <SelectPage selectable={selectable} selection={selection} label={t('bulk.selectPage')} />
      <ReviewTable
        className="ar-submissions-table"
        headers={[select.header, ...columnHeaders(COLUMNS, label)]}
        headerCell={select.headerCell}
      >
        {items.map((s) => (
          <tr
            key={s._id}
            data-testid="submission-row"
            data-status={s.status}
            data-row-id={s._id}
            data-current={s._id === currentId ? 'true' : undefined}
            className={s._id === currentId ? 'is-current' : undefined}
            tabIndex={s._id === currentId ? 0 : -1}
            onFocus={(e) => {
              if (e.target === e.currentTarget) onCurrent(s._id);
            }}
            aria-label={t('submissions.rowLabel', { title: s.task.title, name: s.user.name })}
          >
            <SelectCell
              id={s._id}
              show={reviewable(s)}
              label={t('bulk.selectItem', { title: s.task.title, name: s.user.name })}
              selection={selection}
            />
            <td className="ar-cell-head ar-break">
              <span className="with-thumb">
                <ProofThumb item={s} title={s.task.title} onOpen={() => onView(s)} />
                <span>{s.task.title}</span>
              </span>
              <ProofContent item={s} compact />
            </td>
            <td data-label={label('sender')} className="ar-break">
              <span className="ar-stack">
                <span>{s.user.name}</span>
                {s.user.email && <span className="muted small">{s.user.email}</span>}
                <AccountStanding user={s.user} />
              </span>
            </td>
            <td data-label={label('date')}>{formatDateTime(s.createdAt)}</td>
            <td data-label={label('status')}>
              <span className="ar-badges">
                <ReviewStatusBadge status={s.status} />
                <FlagBadge flags={s.flags} />
              </span>
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
                {reviewable(s) && (
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
    </>
  );
}
