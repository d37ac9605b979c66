import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useEffect } from "react";
import { ApiRequestError, type ItemResponse } from "@/lib/dashboard/api-client";
import { EmptyState, ErrorState, Skeleton } from "./states";

interface Props<T extends { title: string }> {
  query: UseQueryResult<ItemResponse<T>>;
  noun: string;
  back: { href: string; label: string };
  /** What a reader of a dead link should know (the 404 state's text). */
  notFoundHint: string;
  /** The loading skeleton's widths: the title's, then two lines of text. */
  skeleton: readonly [title: string, line: string, line: string];
  children: (record: T) => ReactNode;
}

/**
 * A detail page in every state it can be in, under its back link: loading, not found, failed
 * (with Retry), and the record itself, whose title then names the browser tab.
 */
export function DetailState<T extends { title: string }>({ query, noun, back, notFoundHint, skeleton, children }: Props<T>) {
  const title = query.data?.data.title;
  useEffect(() => {
    if (title !== undefined) document.title = `${title} · Feedback`;
  }, [title]);

  return (
    <>
      <Link className="back-link" href={back.href}>
        {back.label}
      </Link>
      {query.isError ? (
        query.error instanceof ApiRequestError && query.error.status === 404 ? (
          <EmptyState title={`This ${noun} does not exist.`}>{notFoundHint}</EmptyState>
        ) : (
          <ErrorState title={`The ${noun} could not be loaded.`} error={query.error} onRetry={() => query.refetch()} />
        )
      ) : !query.data ? (
        <div className="detail" aria-busy="true">
          <span className="visually-hidden">Loading the {noun}…</span>
          <Skeleton width={skeleton[0]} />
          <div style={{ height: 16 }} />
          <Skeleton width={skeleton[1]} />
          <div style={{ height: 8 }} />
          <Skeleton width={skeleton[2]} />
        </div>
      ) : (
        children(query.data.data)
      )}
    </>
  );
}
