import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { adminKeys, fetchSubmissions } from './admin-review-api';
import { EvidenceModal } from './evidence-modal';
import { ExportButtons } from './export-button';
import { ListBody } from './list-body';
import { ListPageHead, RangeText } from './list-parts';
import {
  readSubmissionList,
  SUBMISSION_FILTERS,
  type SubmissionListState,
  submissionListApiQuery,
  submissionListSearch,
} from './list-queries';
import { ReviewModal } from './review-modal';
import { SubmissionsTable } from './submissions-table';
import { useListPage } from './use-list-page';

/** /admin/submissions ("task completion"): the proofs by status, pending first, with their review. */
export function SubmissionsPage() {
  const { t } = useTranslation('adminReview');
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
  // ids, so a refetch (fresh proof URLs, a review by someone else) shows in the open modal
  const [viewing, setViewing] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const find = (id: string | null) => list.data?.items.find((s) => s._id === id) ?? null;

  return (
    <section className="ar-page" aria-labelledby="submissions-title">
      <ListPageHead
        id="submissions-title"
        title={t('submissions.title')}
        subtitle={t('submissions.subtitle')}
        actions={<ExportButtons kind="submissions" apiQuery={submissionListApiQuery(state)} />}
      />
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
      <ListBody
        list={list}
        errorText={t('submissionsLoadError')}
        errorTestId="submissions-error"
        empty={
          <p className="card ar-empty" data-testid="submissions-empty">
            {t(`submissions.empty.${state.status}`)}
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
            <SubmissionsTable
              items={data.items}
              onView={(s) => setViewing(s._id)}
              onReview={(s) => setReviewing(s._id)}
            />
          </>
        )}
      </ListBody>
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
