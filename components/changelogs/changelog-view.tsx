"use client";

import { DetailState } from "@/components/ui/detail-state";
import { formatDateTime } from "@/components/ui/format";
import { ChangelogStatusBadge } from "@/components/ui/status-badge";
import { useChangelog } from "@/lib/dashboard/hooks";
import { LabelChips } from "./label-chips";
import { Markdown } from "./markdown";

export function ChangelogView({ changelogId }: { changelogId: string }) {
  const changelog = useChangelog(changelogId);
  return (
    <DetailState
      query={changelog}
      noun="changelog"
      back={{ href: "/changelogs", label: "← Back to changelogs" }}
      notFoundHint="It may have been deleted, or the link is wrong."
      skeleton={["55%", "90%", "80%"]}
    >
      {(c) => (
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
      )}
    </DetailState>
  );
}
