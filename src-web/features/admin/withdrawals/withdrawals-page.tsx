import type { WithdrawalDto } from '@contract/withdrawals';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, bulkReviewWithdrawals, fetchWithdrawals } from '../../../components/admin/admin-api';
import { BulkBar, useBulkRun, useSelection } from '../../../components/admin/bulk-review';
import { ExportButtons } from '../../../components/admin/export-button';
import { ListBody } from '../../../components/admin/list-body';
import { ListPageHead, RangeText } from '../../../components/admin/list-parts';
import {
  EMPTY_WITHDRAWAL_FILTERS,
  isReversedRange,
  readWithdrawalList,
  type WithdrawalListState,
  withdrawalListApiQuery,
  withdrawalListSearch,
} from '../../../components/admin/list-queries';
import { useListPage } from '../../../components/admin/use-list-page';
import {
  ApproveWithdrawalModal,
  RejectWithdrawalModal,
  useApproveWithdrawal,
} from '../../../components/admin/withdrawal-decisions';
import { formatMoney } from '../../../lib/format';
import { usePageTitle } from '../../../lib/page-title';
import { PayoutFileCard } from './payout-file';
import { WithdrawalFlagsModal } from './withdrawal-flags-modal';
import { WithdrawalsFilters } from './withdrawals-filters';
import { WithdrawalsTable } from './withdrawals-table';

/** /admin/withdrawals: filters, the total, the table and the approve and reject actions. */
export function WithdrawalsPage() {
  const { t } = useTranslation('adminLists');
  usePageTitle(t('common:titles.withdrawals'));
  const { state, list, go, patch } = useListPage<
    WithdrawalListState,
    Awaited<ReturnType<typeof fetchWithdrawals>>
  >({
    read: readWithdrawalList,
    search: withdrawalListSearch,
    queryKey: adminKeys.withdrawals,
    fetchList: fetchWithdrawals,
    enabled: (s) => !isReversedRange(s),
  });
  // the payout run: many pending withdrawals approved, or rejected with one reason, at once
  // ticks belong to the page shown: the confirmation adds up what is on screen
  const selection = useSelection(withdrawalListSearch(state));
  const bulk = useBulkRun(
    (
      ids: readonly string[],
      decision: { status: 'approved' } | { status: 'rejected'; reason: string },
      key: string,
    ) => bulkReviewWithdrawals(ids, decision, key),
  );
  const selectedTotal = (list.data?.items ?? [])
    .filter((w) => selection.ids.has(w._id))
    .reduce((sum, w) => sum + Math.round(w.amount * 100), 0);
  const [rejecting, setRejecting] = useState<WithdrawalDto | null>(null);
  // by id: the list's copy, so a dismissal shows at once
  const [flagsOf, setFlagsOf] = useState<string | null>(null);
  // approving pays real money: asked first, like the reject asks for a reason
  const [approving, setApproving] = useState<WithdrawalDto | null>(null);
  const approve = useApproveWithdrawal(() => setApproving(null));

  return (
    <section className="al-page" aria-labelledby="withdrawals-title">
      <ListPageHead
        id="withdrawals-title"
        title={t('withdrawals.title')}
        subtitle={t('withdrawals.subtitle')}
        actions={<ExportButtons kind="withdraws" apiQuery={withdrawalListApiQuery(state)} />}
      />
      <WithdrawalsFilters
        state={state}
        onChange={(change) => patch({ ...change, page: 1 })}
        onReset={() => go(EMPTY_WITHDRAWAL_FILTERS)}
      />
      <BulkBar
        testId="withdrawals-bulk"
        count={selection.ids.size}
        sending={bulk.sending}
        onClear={selection.clear}
        onApprove={() => bulk.run([...selection.ids], { status: 'approved' }, selection.clear)}
        onReject={(reason) => bulk.run([...selection.ids], { status: 'rejected', reason }, selection.clear)}
        approveConfirm={{
          title: t('withdrawals.bulkApproveTitle', { count: selection.ids.size }),
          body: t('withdrawals.bulkApproveBody', { amount: formatMoney(selectedTotal / 100) }),
        }}
        reasons="written"
      />
      {isReversedRange(state) ? (
        <p className="card al-empty" data-testid="withdrawals-reversed">
          {t('withdrawals.reversedRange')}
        </p>
      ) : (
        <ListBody
          list={list}
          errorText={t('withdrawalsLoadError')}
          errorTestId="withdrawals-error"
          page={state.page}
          onPage={(page) => patch({ page })}
        >
          {(data) => (
            <>
              <div className="al-summary">
                <strong data-testid="withdrawals-total">
                  {t('withdrawals.total', { count: data.total })}
                </strong>
                <RangeText
                  page={data.page}
                  limit={data.limit}
                  total={data.total}
                  textKey="withdrawals.range"
                  testId="withdrawals-range"
                />
              </div>
              {data.items.length === 0 ? (
                <p className="card al-empty" data-testid="withdrawals-empty">
                  {state.flagged ? t('adminFraud:filter.noneFlagged') : t('withdrawals.empty')}
                </p>
              ) : (
                <WithdrawalsTable
                  items={data.items}
                  busyId={approve.isPending ? (approve.variables?._id ?? null) : null}
                  selection={selection}
                  onApprove={setApproving}
                  onReject={setRejecting}
                  onFlags={(w) => setFlagsOf(w._id)}
                />
              )}
            </>
          )}
        </ListBody>
      )}
      <RejectWithdrawalModal item={rejecting} onClose={() => setRejecting(null)} />
      <WithdrawalFlagsModal
        item={list.data?.items.find((w) => w._id === flagsOf) ?? null}
        onClose={() => setFlagsOf(null)}
      />
      <ApproveWithdrawalModal item={approving} approve={approve} onClose={() => setApproving(null)} />
      <PayoutFileCard />
    </section>
  );
}
