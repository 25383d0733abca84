import type { AdminSubmissionDto } from '@contract/admin';
import type { ReviewRequest } from '@contract/review';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReviewStatusBadge } from '../../../components/admin/badges';
import { Modal } from '../../../components/modal';
import { ProofContent } from '../../../components/proof-content';
import { useIsSelf } from '../../../lib/auth';
import { shownFeedback } from '../../../lib/feedback';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { AccountStanding, standingNote } from './account-standing';
import { AppealDecision, AppealSummary } from './appeal-decision';
import { EvidenceFlags } from './evidence-flags';
import { QuickActions } from './quick-actions';
import { quickApproveRequest, quickRejectRequest } from './review-form';
import { useReview } from './use-review';

/**
 * The proof image of a submission with its details; for a pending one, quick approve (the fixed
 * feedback) or quick reject with a preset reason, or the full review. Escape or a click on the
 * backdrop closes it.
 */
export function EvidenceModal({
  item,
  onClose,
  onReview,
  onExpired,
  onDecided = onClose,
  focusReason = false,
  hold,
  undoBar,
}: {
  item: AdminSubmissionDto | null;
  /** holds a quick decision for its undo seconds instead of sending it at once */
  hold?(item: AdminSubmissionDto, request: ReviewRequest): boolean;
  /** the decisions still undoable, shown above the actions */
  undoBar?: ReactNode;
  onClose(): void;
  onReview(item: AdminSubmissionDto): void;
  onExpired(): void;
  /** after a quick decision (the review queue opens the next item); closes by default */
  onDecided?(item: AdminSubmissionDto): void;
  /** start at the reason picker (the queue's `r`) */
  focusReason?: boolean;
}) {
  const { t } = useTranslation('adminLists');
  const isSelf = useIsSelf();
  const itemId = item?._id;
  // another item shown in the open modal (the queue moved on): start reading at its title
  useEffect(() => {
    if (!itemId) return;
    const dialog = document.querySelector('dialog[open]');
    const reason = focusReason ? document.getElementById('quick-reason') : null;
    (reason ?? dialog?.querySelector<HTMLElement>('[data-dialog-title]'))?.focus();
  }, [itemId, focusReason]);
  // the decision sits in the footer: always in view, while the proof and its details scroll
  const appealFooter = item?.appeal?.status === 'pending' && !isSelf(item.user._id) && (
    <AppealDecision key={item._id} item={item} onDone={onClose} />
  );
  const actions = item?.status === 'pending' && (
    <EvidenceActions
      key={item._id}
      item={item}
      hold={hold}
      onDone={() => onDecided(item)}
      onReview={() => onReview(item)}
    />
  );
  const decision = actions || appealFooter;
  const footer =
    undoBar || decision ? (
      <>
        {undoBar}
        {decision}
      </>
    ) : undefined;
  return (
    <Modal
      open={item !== null}
      title={t('evidence.title', { title: item?.task.title ?? '' })}
      onClose={onClose}
      size="lg"
      footer={footer}
      scrollableBody
    >
      {item && <EvidenceBody key={item._id} item={item} onExpired={onExpired} />}
    </Modal>
  );
}

/** Quick approve, quick reject with a reason, or the full review; an admin's own item gets a note instead. */
function EvidenceActions({
  item,
  hold,
  onDone,
  onReview,
}: {
  item: AdminSubmissionDto;
  hold?(item: AdminSubmissionDto, request: ReviewRequest): boolean;
  onDone(): void;
  onReview(): void;
}) {
  const { t } = useTranslation('adminLists');
  const review = useReview(item._id, onDone);
  const own = useIsSelf()(item.user._id);
  if (own) {
    return (
      <p className="notice notice-info al-footer-note" data-testid="own-item">
        {t('ownItem')}
      </p>
    );
  }
  const decide = (request: ReviewRequest, errorKey: string) => {
    if (!hold) return review.send(request, errorKey);
    if (hold(item, request)) onDone();
  };
  const note = standingNote(t, item.user);
  const banned = item.user.status === 'banned';
  return (
    <div className="al-evidence-actions">
      {note && (
        <p
          className={`notice ${banned ? 'notice-error' : 'notice-info'}`}
          id={banned ? 'quick-approve-blocked' : undefined}
          data-testid="standing-note"
        >
          {note}
        </p>
      )}
      {review.failure && (
        <p className="notice notice-error" role="alert" data-testid="review-failure">
          {review.failure}
        </p>
      )}
      <QuickActions
        sending={review.sending}
        pendingStatus={review.pendingStatus}
        onApprove={() => decide(quickApproveRequest(), 'approvalProcessError')}
        onReject={(reason) => decide(quickRejectRequest(reason), 'rejectionProcessError')}
        onReview={onReview}
        approveBlocked={banned ? note : null}
      />
    </div>
  );
}

function EvidenceBody({ item, onExpired }: { item: AdminSubmissionDto; onExpired(): void }) {
  const { t } = useTranslation('adminLists');
  const feedback = shownFeedback(t, item);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const [retried, setRetried] = useState(false);
  const url = item.proofImageUrl;
  const reasonLabel = item.rejectionReason
    ? t(`rejectionReasons.${item.rejectionReason}`, { defaultValue: item.rejectionReason })
    : null;

  return (
    <div className="al-evidence" data-testid="evidence-modal" data-id={item._id}>
      <AppealSummary item={item} />
      <EvidenceFlags item={item} />
      <div className="al-evidence-image">
        {item.proofType !== 'screenshot' ? (
          <ProofContent item={item} />
        ) : url && failedUrl !== url ? (
          <img
            className="proof-image"
            src={url}
            alt={t('evidence.alt', { name: item.user.name, title: item.task.title })}
            data-testid="evidence-image"
            onError={() => {
              setFailedUrl(url);
              // the signed URL may have expired: ask the list for fresh ones once
              if (!retried) {
                setRetried(true);
                onExpired();
              }
            }}
          />
        ) : (
          <p className="notice notice-info">{url ? t('evidence.loadError') : t('evidence.noImage')}</p>
        )}
      </div>
      <dl className="al-info al-evidence-info">
        <div>
          <dt>{t('evidence.sender')}</dt>
          <dd className="al-break">{item.user.name}</dd>
        </div>
        {item.user.status !== 'active' && (
          <div>
            <dt>{t('standing.account')}</dt>
            <dd>
              <AccountStanding user={item.user} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('evidence.date')}</dt>
          <dd>{formatDateTime(item.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('evidence.reward')}</dt>
          <dd>{formatMoney(item.reward)}</dd>
        </div>
        <div>
          <dt>{t('submissions.columns.status')}</dt>
          <dd>
            <ReviewStatusBadge status={item.status} />
          </dd>
        </div>
        <div className="al-span-all">
          <dt>{t('evidence.description')}</dt>
          <dd className={item.description ? 'pre-line al-break' : 'muted'}>
            {item.description || t('evidence.noDescription')}
          </dd>
        </div>
        {item.automaticComment && (
          <div className="al-span-all">
            <dt>{t('evidence.automaticComment')}</dt>
            <dd className="pre-line al-break" data-testid="evidence-comment">
              {item.automaticComment}
            </dd>
          </div>
        )}
        {reasonLabel && !item.appeal && (
          <div className="al-span-all">
            <dt>{t('evidence.rejectionReason')}</dt>
            <dd>{reasonLabel}</dd>
          </div>
        )}
        {item.status !== 'pending' && feedback && !item.appeal && (
          <div className="al-span-all">
            <dt>{t('evidence.feedback')}</dt>
            <dd className="pre-line al-break">{feedback}</dd>
          </div>
        )}
      </dl>
    </div>
  );
}
