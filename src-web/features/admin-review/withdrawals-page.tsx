import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { WithdrawalDto } from '../../../src-server/contract/withdrawals';
import { PageLoader } from '../../components/page-loader';
import { Pagination } from '../../components/pagination';
import { useToast } from '../../components/toast';
import { adminKeys, approveWithdrawal, fetchWithdrawals } from './admin-review-api';
import { newIdempotencyKey } from './idempotency-key';
import { LoadError, RangeText } from './list-parts';
import {
  EMPTY_WITHDRAWAL_FILTERS,
  readWithdrawalList,
  type WithdrawalListState,
  withdrawalListSearch,
} from './list-queries';
import { RejectWithdrawalModal } from './reject-withdrawal-modal';
import { serverErrorText } from './server-error';
import { useClampPage } from './use-clamp-page';
import { WithdrawalsFilters } from './withdrawals-filters';
import { WithdrawalsTable } from './withdrawals-table';

/** /admin/withdrawals: filters, the total, the table and the approve and reject actions. */
export function WithdrawalsPage() {
  const { t } = useTranslation('adminReview');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state = readWithdrawalList(params);
  const list = useQuery({
    queryKey: adminKeys.withdrawals(state),
    queryFn: ({ signal }) => fetchWithdrawals(state, signal),
    placeholderData: keepPreviousData,
  });
  const [rejecting, setRejecting] = useState<WithdrawalDto | null>(null);
  // one key per withdrawal: a retry after a lost reply is answered, not paid twice
  const keys = useRef(new Map<string, string>());
  const keyFor = (id: string) => {
    const known = keys.current.get(id);
    if (known) return known;
    const key = newIdempotencyKey();
    keys.current.set(id, key);
    return key;
  };
  const approve = useMutation({
    mutationFn: (w: WithdrawalDto) => approveWithdrawal(w._id, keyFor(w._id)),
    onSuccess: () => toast.success(t('withdrawalsApproveSuccess')),
    onError: (err) => toast.error(serverErrorText(t, err, 'adminReview:withdrawalsApproveError')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });

  const go = (next: WithdrawalListState) =>
    setParams(new URLSearchParams(withdrawalListSearch(next)), { replace: true });
  const data = list.data;
  useClampPage(data, state.page, (page) => go({ ...state, page }));

  return (
    <section className="ar-page" aria-labelledby="withdrawals-title">
      <header className="page-head">
        <h1 id="withdrawals-title">{t('withdrawals.title')}</h1>
        <p className="muted">{t('withdrawals.subtitle')}</p>
      </header>
      <WithdrawalsFilters
        state={state}
        onChange={(patch) => go({ ...state, ...patch, page: 1 })}
        onReset={() => go(EMPTY_WITHDRAWAL_FILTERS)}
      />
      {list.isPending ? (
        <PageLoader />
      ) : list.isError && !data ? (
        <LoadError
          message={t('withdrawalsLoadError')}
          onRetry={() => list.refetch()}
          testId="withdrawals-error"
        />
      ) : data ? (
        <>
          {list.isError && (
            <LoadError
              message={t('withdrawalsLoadError')}
              onRetry={() => list.refetch()}
              testId="withdrawals-error"
            />
          )}
          <div className="ar-summary">
            <strong data-testid="withdrawals-total">{t('withdrawals.total', { count: data.total })}</strong>
            <RangeText
              page={data.page}
              limit={data.limit}
              total={data.total}
              textKey="withdrawals.range"
              testId="withdrawals-range"
            />
          </div>
          {data.items.length === 0 ? (
            <p className="card ar-empty" data-testid="withdrawals-empty">
              {t('withdrawals.empty')}
            </p>
          ) : (
            <WithdrawalsTable
              items={data.items}
              busyId={approve.isPending ? (approve.variables?._id ?? null) : null}
              onApprove={(w) => approve.mutate(w)}
              onReject={setRejecting}
            />
          )}
          <Pagination
            page={state.page}
            pages={Math.max(1, data.pages)}
            onPage={(page) => go({ ...state, page })}
          />
        </>
      ) : null}
      <RejectWithdrawalModal item={rejecting} onClose={() => setRejecting(null)} />
    </section>
  );
}
