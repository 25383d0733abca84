import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../components/page-loader';
import { Pagination } from '../../components/pagination';
import { adminKeys, fetchSubmissions } from './admin-review-api';
import { EvidenceModal } from './evidence-modal';
import { LoadError, RangeText } from './list-parts';
import {
  readSubmissionList,
  SUBMISSION_FILTERS,
  type SubmissionListState,
  submissionListSearch,
} from './list-queries';
import { ReviewModal } from './review-modal';
import { SubmissionsTable } from './submissions-table';
import { useClampPage } from './use-clamp-page';

/** /admin/submissions ("task completion"): the proofs by status, pending first, with their review. */
export function SubmissionsPage() {
  const { t } = useTranslation('adminReview');
  const [params, setParams] = useSearchParams();
  const state = readSubmissionList(params);
  const list = useQuery({
    queryKey: adminKeys.submissions(state),
    queryFn: ({ signal }) => fetchSubmissions(state, signal),
    placeholderData: keepPreviousData,
  });
  // ids, so a refetch (fresh proof URLs, a review by someone else) shows in the open modal
  const [viewing, setViewing] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const go = (next: SubmissionListState) =>
    setParams(new URLSearchParams(submissionListSearch(next)), { replace: true });
  const data = list.data;
  useClampPage(data, state.page, (page) => go({ ...state, page }));
  const find = (id: string | null) => data?.items.find((s) => s._id === id) ?? null;

  return (
    <section className="ar-page" aria-labelledby="submissions-title">
      <header className="page-head">
        <h1 id="submissions-title">{t('submissions.title')}</h1>
        <p className="muted">{t('submissions.subtitle')}</p>
      </header>
      <fieldset className="status-filter">
        <legend className="sr-only">{t('submissions.filterLabel')}</legend>
        {SUBMISSION_FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            className={`chip${state.status === f ? ' is-active' : ''}`}
            aria-pressed={state.status === f}
            onClick={() => go({ status: f, page: 1 })}
            data-testid={`submissions-filter-${f}`}
          >
            {t(`submissions.filters.${f}`)}
          </button>
        ))}
      </fieldset>
      {list.isPending ? (
        <PageLoader />
      ) : list.isError && !data ? (
        <LoadError
          message={t('submissionsLoadError')}
          onRetry={() => list.refetch()}
          testId="submissions-error"
        />
      ) : data && data.items.length === 0 ? (
        <p className="card ar-empty" data-testid="submissions-empty">
          {t(`submissions.empty.${state.status}`)}
        </p>
      ) : data ? (
        <>
          {list.isError && (
            <LoadError
              message={t('submissionsLoadError')}
              onRetry={() => list.refetch()}
              testId="submissions-error"
            />
          )}
          <RangeText
            page={data.page}
            limit={data.limit}
            total={data.total}
            textKey="submissions.range"
            testId="submissions-range"
          />
          <SubmissionsTable
            items={data.items}
            onView={(s) => setViewing(s._id)}
            onReview={(s) => setReviewing(s._id)}
          />
          <Pagination
            page={state.page}
            pages={Math.max(1, data.pages)}
            onPage={(page) => go({ ...state, page })}
          />
        </>
      ) : null}
      <EvidenceModal
        item={find(viewing)}
        onClose={() => setViewing(null)}
        onReview={(s) => {
          setViewing(null);
          setReviewing(s._id);
        }}
        onExpired={() => void list.refetch()}
      />
      <ReviewModal item={find(reviewing)} onClose={() => setReviewing(null)} />
    </section>
  );
}
