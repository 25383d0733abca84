import type { AdminSubmissionDto } from '@contract/admin';
import type { ReviewRequest } from '@contract/review';
import { SUBMISSION_PAGE_SIZES, SUBMISSION_SORTS, type SubmissionSort } from '@contract/submissions';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  adminKeys,
  bulkReviewSubmissions,
  fetchPendingIds,
  fetchSubmissions,
} from '../../../components/admin/admin-api';
import { BulkBar, bulkRejectRequest, useBulkRun, useSelection } from '../../../components/admin/bulk-review';
import { ExportButtons } from '../../../components/admin/export-button';
import { ListBody } from '../../../components/admin/list-body';
import { ListPageHead, RangeText } from '../../../components/admin/list-parts';
import {
  readSubmissionList,
  SUBMISSION_FILTERS,
  type SubmissionListState,
  submissionListApiQuery,
  submissionListSearch,
  submissionPageSize,
  submissionSort,
} from '../../../components/admin/list-queries';
import { useListPage } from '../../../components/admin/use-list-page';
import { useSearchText } from '../../../components/admin/use-search-text';
import { useIsSelf } from '../../../lib/auth';
import { usePageTitle } from '../../../lib/page-title';
import { EvidenceModal } from './evidence-modal';
import { KeyboardHelp } from './keyboard-help';
import { quickApproveRequest } from './review-form';
import { ReviewModal } from './review-modal';
import { SubmissionsTable } from './submissions-table';
import { UndoBar } from './undo-bar';
import { useDecisionDelay } from './use-decision-delay';
import { useReviewQueue } from './use-review-queue';

/**
 * /admin/submissions ("task completion"): the proofs by status and search, pending first, with
 * their review one by one (also from the keyboard) or many at once.
 */
export function SubmissionsPage() {
  const { t } = useTranslation('adminLists');
  usePageTitle(t('common:titles.submissions'));
  const { state, list, go, patch } = useListPage<
    SubmissionListState,
    Awaited<ReturnType<typeof fetchSubmissions>>
  >({
    read: readSubmissionList,
    search: submissionListSearch,
    queryKey: adminKeys.submissions,
    fetchList: fetchSubmissions,
  });
  const isSelf = useIsSelf();
  const delay = useDecisionDelay();
  const { isHeld } = delay;
  // a proof whose decision waits for its undo seconds is decided already, as far as the queue goes
  const reviewable = useCallback(
    (s: AdminSubmissionDto) => s.status === 'pending' && !isSelf(s.user._id) && !isHeld(s._id),
    [isSelf, isHeld],
  );
  // ticks belong to one filter, search and order (select all matching goes beyond the page)
  const sort = submissionSort(state);
  const selection = useSelection(`${state.status}\n${state.q}\n${state.flagged}\n${sort}`);
  const hold = useCallback(
    (item: AdminSubmissionDto, request: ReviewRequest) => {
      if (!delay.hold(item, request)) return false;
      selection.setMany([item._id], false);
      return true;
    },
    [delay.hold, selection.setMany],
  );
  const bulk = useBulkRun((ids: readonly string[], request: ReviewRequest, key: string) =>
    bulkReviewSubmissions(ids, request, key),
  );
  const [reviewing, setReviewing] = useState<string | null>(null);
  const queue = useReviewQueue({
    items: list.data?.items,
    reviewable,
    toggle: selection.toggle,
    hold,
    undo: delay.undo,
    busy: reviewing !== null || bulk.sending,
  });
  const find = (id: string | null) => list.data?.items.find((s) => s._id === id) ?? null;
  const onSearch = useCallback((q: string) => patch({ q, page: 1 }), [patch]);
  const search = useSearchText(state.q, onSearch);
  const selectMatching = async () => {
    const { ids } = await fetchPendingIds({ ...state, sort });
    selection.replace(ids.filter((id) => !isHeld(id)));
  };
  const undo = (id: string) => {
    if (delay.undo(id)) queue.setCurrentId(id);
  };
  const undoBar = <UndoBar delay={delay} onUndo={undo} />;

  return (
    <section className="al-page" aria-labelledby="submissions-title">
      <ListPageHead
        id="submissions-title"
        title={t('submissions.title')}
        subtitle={t('submissions.subtitle')}
        actions={
          <>
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={queue.openHelp}
              data-testid="keys-help"
            >
              {t('keys.button')}
            </button>
            <ExportButtons kind="submissions" apiQuery={submissionListApiQuery(state)} />
          </>
        }
      />
      <form
        className="al-toolbar al-queue-toolbar"
        aria-label={t('submissions.search')}
        onSubmit={(e) => {
          e.preventDefault();
          search.submit();
        }}
      >
        <div className="field al-grow">
          <label htmlFor="submission-search">{t('submissions.search')}</label>
          <input
            id="submission-search"
            type="search"
            value={search.text}
            placeholder={t('submissions.searchPlaceholder')}
            onChange={(e) => search.setText(e.target.value)}
            maxLength={200}
            data-testid="submission-search"
          />
        </div>
        <div className="field">
          <label htmlFor="submission-sort">{t('queue.sort.label')}</label>
          <select
            id="submission-sort"
            value={sort}
            onChange={(e) => patch({ sort: e.target.value as SubmissionSort, page: 1 })}
            data-testid="submission-sort"
          >
            {SUBMISSION_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`queue.sort.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="submission-size">{t('queue.size')}</label>
          <select
            id="submission-size"
            value={submissionPageSize(state)}
            onChange={(e) => patch({ size: Number(e.target.value), page: 1 })}
            data-testid="submission-size"
          >
            {SUBMISSION_PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </form>
      {(state.task || state.user) && (
        <p className="audit-scope" data-testid="submissions-scope">
          {state.task ? t('submissions.scopeTask') : t('submissions.scopeUser')}{' '}
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => patch({ task: '', user: '', page: 1 })}
          >
            {t('audit.clearScope')}
          </button>
        </p>
      )}
      <fieldset className="status-filter">
        <legend className="sr-only">{t('submissions.filterLabel')}</legend>
        {SUBMISSION_FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            className={`chip${state.status === f ? ' is-active' : ''}`}
            aria-pressed={state.status === f}
            onClick={() => go({ ...state, status: f, page: 1 })}
            data-testid={`submissions-filter-${f}`}
          >
            {t(`submissions.filters.${f}`)}
          </button>
        ))}
        <span className="status-filter-sep" aria-hidden="true" />
        <button
          type="button"
          className={`chip chip-flag${state.flagged ? ' is-active' : ''}`}
          aria-pressed={state.flagged}
          onClick={() => patch({ flagged: !state.flagged, page: 1 })}
          data-testid="submissions-filter-flagged"
        >
          <span aria-hidden="true">⚑&nbsp;</span>
          {t('adminFraud:filter.flagged')}
        </button>
      </fieldset>
      <ListBody
        list={list}
        errorText={t('submissionsLoadError')}
        errorTestId="submissions-error"
        empty={
          <p className="card al-empty" data-testid="submissions-empty">
            {state.q
              ? t('submissions.noMatch')
              : state.flagged
                ? t('adminFraud:filter.noneFlagged')
                : t(`submissions.empty.${state.status}`)}
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
              textKey="submissions.range"
              testId="submissions-range"
            />
            <p className="muted small al-keys-hint">{t('keys.hint')}</p>
            <SubmissionsTable
              items={data.items}
              reviewable={reviewable}
              selection={selection}
              currentId={queue.currentId}
              onCurrent={queue.setCurrentId}
              onView={(s) => queue.setViewing(s._id)}
              held={delay.held}
            />
          </>
        )}
      </ListBody>
      {/* under the list and sticky to the window's foot: in view from any ticked row, and the rows
          do not move when it appears */}
      <div className="al-sticky-foot">
        {undoBar}
        <BulkBar
          testId="submissions-bulk"
          count={selection.ids.size}
          sending={bulk.sending}
          matching={state.status === 'pending' && list.data ? { total: list.data.total, limit: 500 } : null}
          onSelectMatching={() => void selectMatching()}
          onClear={selection.clear}
          onApprove={() => bulk.run([...selection.ids], quickApproveRequest(), selection.clear)}
          onReject={(reason, feedback) =>
            bulk.run([...selection.ids], bulkRejectRequest(reason, feedback), selection.clear)
          }
          approveConfirm={{
            title: t('bulk.approveTitle', { count: selection.ids.size }),
            body: t('bulk.approveBody'),
          }}
          reasons="preset"
        />
      </div>
      <EvidenceModal
        item={find(queue.viewing)}
        focusReason={queue.focusReason}
        onClose={() => queue.setViewing(null)}
        onDecided={(s) => queue.decided(s, true)}
        onReview={(s) => {
          queue.setViewing(null);
          setReviewing(s._id);
        }}
        onExpired={() => void list.refetch()}
        hold={hold}
        undoBar={
          delay.held.length > 0 ? <UndoBar delay={delay} onUndo={undo} testId="undo-bar-modal" /> : undefined
        }
      />
      <ReviewModal item={find(reviewing)} onClose={() => setReviewing(null)} />
      <KeyboardHelp open={queue.helpOpen} onClose={queue.closeHelp} />
    </section>
  );
}
