import { BULK_RESULTS, type BulkReviewDto } from '@contract/bulk-review';
import { REJECTION_REASONS } from '@contract/constants';
import { MAX_FEEDBACK_LENGTH, type ReviewRequest } from '@contract/review';
import { MAX_REJECTION_REASON_LENGTH } from '@contract/withdrawals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRejectionReason, quickRejectRequest } from '../../features/admin/submissions/review-form';
import { ConfirmModal } from '../confirm-modal';
import { useToast } from '../toast';
import { adminKeys } from './admin-api';
import { newIdempotencyKey } from './idempotency-key';
import { serverErrorText } from './server-error';

/**
 * The ids ticked on a list screen, kept across refetches until cleared; a new `resetKey` (another
 * filter, search or page) starts with none.
 */
export function useSelection(resetKey: string) {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => new Set());
  const [tickedFor, setTickedFor] = useState(resetKey);
  if (tickedFor !== resetKey) {
    setTickedFor(resetKey);
    setIds(new Set());
  }
  const toggle = useCallback(
    (id: string) =>
      setIds((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  const setMany = useCallback(
    (many: readonly string[], on: boolean) =>
      setIds((prev) => {
        const next = new Set(prev);
        for (const id of many) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [],
  );
  const replace = useCallback((many: readonly string[]) => setIds(new Set(many)), []);
  const clear = useCallback(() => setIds(new Set()), []);
  return { ids, toggle, setMany, replace, clear };
}
export type Selection = ReturnType<typeof useSelection>;

/** "18 approved, 2 already reviewed": what a bulk run did, in the reader's language. */
export function bulkSummary(t: TFunction, counts: BulkReviewDto['counts']): string {
  return BULK_RESULTS.filter((r) => (counts[r] ?? 0) > 0)
    .map((r) => t(`adminLists:bulk.results.${r}`, { count: counts[r] }))
    .join(', ');
}

/**
 * Sends a bulk review (one Idempotency-Key per decision, so a retry after a lost reply decides
 * nothing twice), then says what happened to the items and clears the selection.
 */
export function useBulkRun<V>(
  send: (ids: readonly string[], verdict: V, key: string) => Promise<BulkReviewDto>,
) {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [key, setKey] = useState(newIdempotencyKey);
  const mutation = useMutation({
    mutationFn: ({ ids, verdict }: { ids: readonly string[]; verdict: V; onDone(): void }) =>
      send(ids, verdict, key),
    onSuccess: (data, { onDone }) => {
      setKey(newIdempotencyKey());
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      const failed = (data.counts.failed ?? 0) + (data.counts.not_found ?? 0) + (data.counts.own_item ?? 0);
      (failed > 0 ? toast.error : toast.success)(bulkSummary(t, data.counts));
      onDone();
    },
    onError: (err) => toast.error(serverErrorText(t, err, 'adminLists:bulk.failed')),
  });
  return {
    run: (ids: readonly string[], verdict: V, onDone: () => void) =>
      mutation.mutate({ ids, verdict, onDone }),
    sending: mutation.isPending,
  };
}

/** The rejection a bulk run sends: the reason's fixed text, or the admin's own feedback. */
export function bulkRejectRequest(reason: string, feedback: string): ReviewRequest {
  if (!isRejectionReason(reason)) throw new Error(`not a rejection reason: ${reason}`);
  const written = feedback.trim();
  return written
    ? { status: 'rejected', feedback: written, rejectionReason: reason }
    : quickRejectRequest(reason);
}

/**
 * The bar over a list with ticked items: how many, "select all matching" (up to the server's
 * limit), approve them (asked first: it pays), or reject them with one preset reason and an
 * optional feedback, and clear.
 */
export function BulkBar({
  count,
  sending,
  matching,
  onSelectMatching,
  onClear,
  onApprove,
  onReject,
  approveConfirm,
  reasons: reasonKind,
  testId,
}: {
  count: number;
  sending: boolean;
  /** how many items match the filter, when more than are ticked */
  matching?: { total: number; limit: number } | null;
  onSelectMatching?(): void;
  onClear(): void;
  onApprove(): void;
  /** a preset reason (submissions) with an optional feedback, or a written reason (withdrawals) */
  onReject(reason: string, feedback: string): void;
  approveConfirm: { title: string; body: string };
  reasons: 'preset' | 'written';
  testId: string;
}) {
  const { t } = useTranslation('adminLists');
  const [reason, setReason] = useState('');
  const [feedback, setFeedback] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const presets = useMemo(
    () => REJECTION_REASONS.map((r) => ({ r, label: t(`rejectionReasons.${r}`) })),
    [t],
  );
  if (count === 0) return null;
  return (
    <section className="card al-bulk" aria-label={t('bulk.label')} data-testid={testId}>
      <p className="al-bulk-count" role="status">
        <strong>{t('bulk.selected', { count })}</strong>
        {matching && onSelectMatching && matching.total > count && (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={onSelectMatching}
            data-testid="bulk-select-matching"
          >
            {t('bulk.selectMatching', { count: Math.min(matching.total, matching.limit) })}
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClear} data-testid="bulk-clear">
          {t('bulk.clear')}
        </button>
      </p>
      <div className="al-bulk-actions">
        <button
          type="button"
          className="btn btn-success"
          disabled={sending}
          onClick={() => setConfirming(true)}
          data-testid="bulk-approve"
        >
          {t('bulk.approve', { count })}
        </button>
        <div className={`field${reasonError ? ' has-error' : ''}`}>
          <label htmlFor={`${testId}-reason`}>{t('evidence.quickReason')}</label>
          {reasonKind === 'preset' ? (
            <select
              id={`${testId}-reason`}
              value={reason}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${testId}-reason-error` : undefined}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonError(null);
              }}
              data-testid="bulk-reason"
            >
              <option value="">{t('evidence.chooseReason')}</option>
              {presets.map(({ r, label }) => (
                <option key={r} value={r}>
                  {label}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={`${testId}-reason`}
              value={reason}
              maxLength={MAX_REJECTION_REASON_LENGTH}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${testId}-reason-error` : undefined}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonError(null);
              }}
              data-testid="bulk-reason"
            />
          )}
          {reasonError && (
            <p className="field-error" id={`${testId}-reason-error`} role="alert">
              {reasonError}
            </p>
          )}
        </div>
        {reasonKind === 'preset' && (
          <div className="field al-grow">
            <label htmlFor={`${testId}-feedback`}>{t('bulk.feedback')}</label>
            <input
              id={`${testId}-feedback`}
              value={feedback}
              maxLength={MAX_FEEDBACK_LENGTH}
              placeholder={t('bulk.feedbackPlaceholder')}
              onChange={(e) => setFeedback(e.target.value)}
              data-testid="bulk-feedback"
            />
          </div>
        )}
        <button
          type="button"
          className="btn btn-danger"
          disabled={sending}
          onClick={() => {
            if (reasonKind === 'preset' ? isRejectionReason(reason) : reason.trim() !== '')
              onReject(reason.trim(), feedback);
            else
              setReasonError(
                t(reasonKind === 'preset' ? 'selectRejectionReason' : 'withdrawalsRejectReasonRequired'),
              );
          }}
          data-testid="bulk-reject"
        >
          {t('bulk.reject', { count })}
        </button>
      </div>
      <ConfirmModal
        open={confirming}
        tone="success"
        title={approveConfirm.title}
        confirmLabel={t('bulk.approve', { count })}
        confirmTestId="bulk-approve-confirm"
        pending={sending}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onApprove();
        }}
      >
        <p>{approveConfirm.body}</p>
      </ConfirmModal>
    </section>
  );
}

/** The header of the tick-box column: a hidden "Select" (the page's box is SelectPage, above the table). */
export function useSelectColumn() {
  const { t } = useTranslation('adminLists');
  return {
    header: { key: 'select', label: '' },
    headerCell: (key: string) =>
      key === 'select' ? <span className="sr-only">{t('bulk.selectColumn')}</span> : undefined,
  };
}

/**
 * "Select all on this page", above the table (a table header is hidden on phones): ticks every
 * selectable row of the page, or unticks them when all are.
 */
export function SelectPage({
  selectable,
  selection,
  label,
}: {
  selectable: readonly string[];
  selection: Selection;
  label: string;
}) {
  if (selectable.length === 0) return null;
  const allTicked = selectable.every((id) => selection.ids.has(id));
  return (
    <label className="al-select-page">
      <input
        type="checkbox"
        checked={allTicked}
        onChange={() => selection.setMany(selectable, !allTicked)}
        data-testid="select-page"
      />
      {label}
    </label>
  );
}

/** A row's tick box (hidden on phones when the row cannot be ticked). */
export function SelectCell({
  id,
  show,
  label,
  selection,
}: {
  id: string;
  show: boolean;
  label: string;
  selection: Selection;
}) {
  const { t } = useTranslation('adminLists');
  return (
    <td
      className={show ? 'al-select-cell' : 'al-select-cell al-hide-phone'}
      data-label={t('bulk.selectColumn')}
    >
      {show && (
        <input
          type="checkbox"
          checked={selection.ids.has(id)}
          onChange={() => selection.toggle(id)}
          aria-label={label}
          data-testid="select-row"
        />
      )}
    </td>
  );
}
