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
import { EmailText } from '../../../components/email-text';
import { ProofContent } from '../../../components/proof-content';
import { ProofThumb } from '../../../components/proof-thumb';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { AccountStanding } from './account-standing';
import type { HeldDecision } from './decision-delay';

const COLUMNS = ['task', 'sender', 'date', 'reward', 'status', 'evidence'] as const;

/**
 * Task, sender, date, reward, status, and one button into the evidence (named "review" while the
 * admin may decide, "view" otherwise; the full review form is reached from there). A pending item
 * the admin may review has a tick box for a bulk review; the queue's current row (moved with j/k)
 * is marked and holds the focus; a row whose decision waits for its undo seconds says which.
 */
export function SubmissionsTable({
  items,
  reviewable,
  selection,
  currentId,
  onCurrent,
  onView,
  held,
}: {
  items: readonly AdminSubmissionDto[];
  reviewable(item: AdminSubmissionDto): boolean;
  selection: Selection;
  currentId: string | null;
  onCurrent(id: string): void;
  onView(item: AdminSubmissionDto): void;
  held: readonly HeldDecision[];
}) {
  const { t } = useTranslation('adminLists');
  const label = (key: (typeof COLUMNS)[number]) =>
    key === 'reward' ? t('queue.reward') : t(`submissions.columns.${key}`);
  const select = useSelectColumn();
  const selectable = items.filter(reviewable).map((x) => x._id);
  return (
    <>
      <SelectPage selectable={selectable} selection={selection} label={t('bulk.selectPage')} />
      <ReviewTable
        className="al-submissions-table"
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
            <td className="al-cell-head al-break">
              <span className="with-thumb">
                <ProofThumb item={s} title={s.task.title} onOpen={() => onView(s)} />
                <span>{s.task.title}</span>
              </span>
              <ProofContent item={s} compact />
            </td>
            <td data-label={label('sender')} className="al-break">
              <span className="al-stack">
                <span>{s.user.name}</span>
                {s.user.email && <EmailText email={s.user.email} className="muted small" />}
                <AccountStanding user={s.user} />
              </span>
            </td>
            <td data-label={label('date')}>{formatDateTime(s.createdAt)}</td>
            <td data-label={label('reward')} className="al-money" data-testid="submission-reward">
              {formatMoney(s.reward)}
            </td>
            <td data-label={label('status')}>
              <span className="al-badges">
                <HeldBadge decision={held.find((d) => d.id === s._id)} />
                <ReviewStatusBadge status={s.status} />
                <FlagBadge flags={s.flags} />
              </span>
            </td>
            <td data-label={label('evidence')}>
              <div className="al-actions">
                <button
                  type="button"
                  className={`btn btn-sm ${reviewable(s) ? 'btn-primary' : 'btn-outline'}`}
                  onClick={() => onView(s)}
                  aria-label={t(reviewable(s) ? 'submissions.reviewItem' : 'submissions.viewEvidence', {
                    title: s.task.title,
                  })}
                  data-testid="view-evidence"
                  data-action={reviewable(s) ? 'review' : 'view'}
                >
                  {t(reviewable(s) ? 'submissions.review' : 'submissions.view')}
                </button>
              </div>
            </td>
          </tr>
        ))}
      </ReviewTable>
    </>
  );
}

/** "Approving…" or "Rejecting…" while the decision waits for its undo seconds. */
function HeldBadge({ decision }: { decision: HeldDecision | undefined }) {
  const { t } = useTranslation('adminLists');
  if (!decision) return null;
  return (
    <span className="badge badge-held" data-testid="held-badge">
      {t(decision.request.status === 'approved' ? 'queue.held.approved' : 'queue.held.rejected')}
    </span>
  );
}
