"use client";

import Link from "next/link";
import { useEffect } from "react";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { ChangelogStatusBadge } from "@/components/ui/status-badge";
import { ApiRequestError } from "@/lib/dashboard/api-client";
import { useChangelog } from "@/lib/dashboard/hooks";
import { LabelChips } from "./label-chips";
import { Markdown } from "./markdown";

export function ChangelogView({ changelogId }: { changelogId: string }) {
  const changelog = useChangelog(changelogId);

  useEffect(() => {
    if (changelog.data) document.title = `${changelog.data.data.title} · Feedback`;
  }, [changelog.data]);

  const back = (
    <Link className="back-link" href="/changelogs">
      ← Back to changelogs
    </Link>
  );

  if (changelog.isError) {
    return (
      <>
        {back}
        {changelog.error instanceof ApiRequestError && changelog.error.status === 404 ? (
          <EmptyState title="This changelog does not exist.">It may have been deleted, or the link is wrong.</EmptyState>
        ) : (
          <ErrorState title="The changelog could not be loaded." error={changelog.error} onRetry={() => changelog.refetch()} />
        )}
      </>
    );
  }

  if (!changelog.data) {
    return (
      <>
        {back}
        <div className="detail" aria-busy="true">
          <span className="visually-hidden">Loading the changelog…</span>
          <Skeleton width="55%" />
          <div style={{ height: 16 }} />
          <Skeleton width="90%" />
          <div style={{ height: 8 }} />
          <Skeleton width="80%" />
        </div>
      </>
    );
  }

  const c = changelog.data.data;
  return (
    <>
      {back}
      <article className="detail">
        <h1>{c.title}</h1>
        <dl className="meta">
          <div>
            <dt>Status</dt>
            <dd>
              <ChangelogStatusBadge status={c.status} />
            </dd>
          </div>
          <div>
            <dt>Labels</dt>
            <dd>
              <LabelChips labels={c.labels} />
            </dd>
          </div>
          <div>
            <dt>Published</dt>
            <dd>{c.publishedAt ? <time dateTime={c.publishedAt}>{formatDateTime(c.publishedAt)}</time> : "Not yet"}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
            </dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>
              <time dateTime={c.updatedAt}>{formatDateTime(c.updatedAt)}</time>
            </dd>
          </div>
        </dl>
        {c.content.trim() ? <Markdown>{c.content}</Markdown> : <p className="subtle">This changelog has no text.</p>}
      </article>
    </>
  );
}
