"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { DetailState } from "@/components/ui/detail-state";
import { formatCount, formatDateTime } from "@/components/ui/format";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { StatusBadge } from "@/components/ui/status-badge";
import { usePost, usePostComments } from "@/lib/dashboard/hooks";
import type { PostRecord } from "@/lib/posts/schemas";
import { CommentItem } from "./comment-item";
import { LAST_POSTS_VIEW } from "./posts-view";

function useBackHref(): string {
  const [href, setHref] = useState("/posts");
  useEffect(() => {
    const last = sessionStorage.getItem(LAST_POSTS_VIEW);
    if (last) setHref(`/posts?${last}`);
  }, []);
  return href;
}

export function PostView({ postId }: { postId: string }) {
  const post = usePost(postId);
  // Asked for beside the post, not after it, so both load at once.
  const comments = usePostComments(postId);
  const backHref = useBackHref();
  return (
    <DetailState
      query={post}
      noun="post"
      back={{ href: backHref, label: "← Back to posts" }}
      notFoundHint="It may have been deleted, or the link is wrong. Go back to the posts list."
      skeleton={["60%", "90%", "75%"]}
    >
      {(record) => <PostDetail post={record} postId={postId} comments={comments} />}
    </DetailState>
  );
}

interface DetailProps {
  post: PostRecord;
  /** As in the address: the key the comments are cached under. */
  postId: string;
  comments: ReturnType<typeof usePostComments>;
}

function PostDetail({ post: p, postId, comments }: DetailProps) {
  const list = comments.data?.pages.flatMap((page) => page.data) ?? [];
  const total = comments.data?.pages[0]?.pagination.total ?? p.commentCount;
  return (
    <>
      <article className="detail">
        <h1>{p.title}</h1>
        <dl className="meta">
          <div>
            <dt>Board</dt>
            <dd>
              <Link href={`/posts?boardId=${encodeURIComponent(p.boardId)}`} title={`All posts on ${p.board.name}`}>
                {p.board.name}
              </Link>
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{p.status ? <StatusBadge name={p.status.name} color={p.status.color} /> : "No status"}</dd>
          </div>
          <div>
            <dt>Author</dt>
            <dd>
              <Link href={`/posts?postedById=${encodeURIComponent(p.postedById)}`} title={`All posts by ${p.postedBy.name}`}>
                {p.postedBy.name}
              </Link>
            </dd>
          </div>
          <div>
            <dt>Upvotes</dt>
            <dd>{formatCount(p.upvotes)}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <time dateTime={p.createdAt}>{formatDateTime(p.createdAt)}</time>
            </dd>
          </div>
        </dl>
        <div className="content">{p.content || <span className="subtle">This post has no text.</span>}</div>
      </article>

      <section className="comments" aria-labelledby="comments-heading">
        <h2 id="comments-heading">Comments ({formatCount(total)})</h2>
        {comments.isError && !comments.data ? (
          <ErrorState title="The comments could not be loaded." error={comments.error} onRetry={() => comments.refetch()} />
        ) : !comments.data ? (
          <div className="comment" aria-busy="true">
            <span className="visually-hidden">Loading comments…</span>
            <Skeleton width="30%" />
            <div style={{ height: 10 }} />
            <Skeleton width="85%" />
          </div>
        ) : list.length === 0 ? (
          <EmptyState title="No comments yet.">Comments on this post will show here.</EmptyState>
        ) : (
          <>
            <ol className="comment-list" aria-label="Comments, pinned first">
              {list.map((comment) => (
                <CommentItem key={comment.id} comment={comment} postId={postId} />
              ))}
            </ol>
            {comments.hasNextPage ? (
              <p>
                <button
                  type="button"
                  className="button"
                  onClick={() => comments.fetchNextPage()}
                  disabled={comments.isFetchingNextPage}
                >
                  {comments.isFetchingNextPage ? "Loading…" : "Show more comments"}
                </button>
              </p>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
