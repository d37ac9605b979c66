import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { ListResponse } from "@/lib/dashboard/api-client";
import { Pager } from "./pagination";
import { EmptyState, ErrorState } from "./states";

export interface TableProps<T> {
  rows: T[] | undefined;
  loading: boolean;
  fetching: boolean;
  skeletonRows: number;
}

interface Props<T> {
  query: UseQueryResult<ListResponse<T>>;
  noun: { one: string; many: string };
  page: number;
  limit: number;
  filtered: boolean;
  /** What to try when the filters match nothing. */
  filterHint: string;
  /** What the list will hold once there is data. */
  emptyHint: string;
  clearFilters: () => void;
  update: (changes: Record<string, string | undefined>) => void;
  table: (props: TableProps<T>) => ReactNode;
}

/**
 * The part of a list page below its filters, in every state a list can be in: loading,
 * failed (with Retry), a page past the end, no match for the filters, nothing yet, and the
 * table with its pager.
 */
export function ListResults<T>({ query, noun, page, limit, filtered, filterHint, emptyHint, clearFilters, update, table }: Props<T>) {
  const data = query.data;
  if (query.isError && !data) {
    return <ErrorState title={`The ${noun.many} could not be loaded.`} error={query.error} onRetry={() => query.refetch()} />;
  }
  if (data && data.data.length === 0) {
    if (data.pagination.total > 0) {
      return (
        <EmptyState
          title={`There is no page ${page}.`}
          action={
            <button type="button" className="button" onClick={() => update({ page: undefined })}>
              Go to the first page
            </button>
          }
        >
          These filters match {data.pagination.total}
          {data.pagination.totalIsExact === false ? " or more" : ""} {noun.many}, on {data.pagination.totalPages}
          {data.pagination.totalIsExact === false ? " or more" : ""} pages.
        </EmptyState>
      );
    }
    if (filtered) {
      return (
        <EmptyState
          title={`No ${noun.many} match these filters.`}
          action={
            <button type="button" className="button" onClick={clearFilters}>
              Clear filters
            </button>
          }
        >
          {filterHint}
        </EmptyState>
      );
    }
    return <EmptyState title={`No ${noun.many} yet.`}>{emptyHint}</EmptyState>;
  }
  return (
    <>
      {query.isError ? (
        <div className="alert" role="alert">
          Could not refresh the {noun.many}.{" "}
          <button type="button" className="button button-small" onClick={() => query.refetch()}>
            Retry
          </button>
        </div>
      ) : null}
      {table({ rows: data?.data, loading: !data, fetching: query.isFetching, skeletonRows: Math.min(limit, 10) })}
      {data ? (
        <Pager
          pagination={data.pagination}
          noun={noun}
          onPage={(next) => update({ page: next > 1 ? String(next) : undefined })}
          onLimit={(next) => update({ limit: next === 10 ? undefined : String(next), page: undefined })}
        />
      ) : null}
    </>
  );
}
