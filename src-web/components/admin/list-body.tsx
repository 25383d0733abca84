import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Pagination } from '../pagination';
import { Skeleton } from '../skeleton';
import { LoadError } from './list-parts';

/**
 * The body of a list page: a loader, a load failure with a retry (over the old rows when there
 * are some), the `empty` line when given and there are no rows, else the rows and the pages.
 */
export function ListBody<D extends { items: readonly unknown[]; pages: number }>({
  list,
  errorText,
  errorTestId,
  empty,
  page,
  onPage,
  children,
}: {
  list: UseQueryResult<D>;
  errorText: string;
  errorTestId: string;
  empty?: ReactNode;
  page: number;
  onPage(page: number): void;
  children(data: D): ReactNode;
}) {
  const data = list.data;
  const error = <LoadError message={errorText} onRetry={() => list.refetch()} testId={errorTestId} />;
  if (list.isPending) return <Skeleton layout="table" />;
  if (list.isError && !data) return error;
  if (!data) return null;
  if (empty !== undefined && data.items.length === 0) return empty;
  return (
    <>
      {list.isError && error}
      {children(data)}
      <Pagination page={page} pages={Math.max(1, data.pages)} onPage={onPage} />
    </>
  );
}
