"use client";

import { useEffect, useId, useRef } from "react";
import { createPortal } from "react-dom";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import type { CommentRevisionRecord } from "@/lib/comments/schemas";
import { errorMessage } from "@/lib/dashboard/api-client";
import { revisionChanges, type TextPart, viaLabel } from "@/lib/dashboard/comment-versions";
import { useCommentHistory } from "@/lib/dashboard/hooks";
import { changedComment, useRestoreComment } from "@/lib/dashboard/mutations";

interface Props {
  commentId: string;
  postId: string;
  author: string;
  canWrite: boolean;
  onClose: () => void;
}

/**
 * A comment's versions in a modal <dialog>: the browser keeps focus inside it and closes it on
 * Escape; the opener gets focus back through onClose. It lives under <body>, not inside the
 * comment's list item, so the versions are not read as part of the comment.
 */
export function CommentHistory({ commentId, postId, author, canWrite, onClose }: Props) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const history = useCommentHistory(commentId);
  const restore = useRestoreComment(postId);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    closeButton.current?.focus();
    return () => element.close();
  }, []);

  const revisions = history.data?.revisions;
  const restoring = restore.isPending || history.isFetching;
  return createPortal(
    <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      <div className="dialog-head">
        <h2 id={titleId}>History of the comment by {author}</h2>
        <button ref={closeButton} type="button" className="button button-small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <RestoreOutcome restore={restore} />
      {history.isError && !history.data ? (
        <ErrorState title="The history could not be loaded." error={history.error} onRetry={() => history.refetch()} />
      ) : !revisions ? (
        <div aria-busy="true">
          <span className="visually-hidden">Loading the history…</span>
          <Skeleton width="40%" />
          <div style={{ height: 10 }} />
          <Skeleton width="90%" />
        </div>
      ) : revisions.length === 0 ? (
        <EmptyState title="No versions yet." />
      ) : (
        <ol className="revision-list" aria-label="Versions, oldest first">
          {revisions.map((revision, index) => (
            <RevisionItem
              key={revision.version}
              revision={revision}
              previous={revisions[index - 1]}
              current={index === revisions.length - 1}
              onRestore={
                canWrite && index < revisions.length - 1
                  ? () => restore.mutate({ commentId, revision, etag: history.data?.etag ?? null })
                  : undefined
              }
              restoring={restoring}
            />
          ))}
        </ol>
      )}
    </dialog>,
    document.body,
  );
}

function RestoreOutcome({ restore }: { restore: ReturnType<typeof useRestoreComment> }) {
  if (restore.isSuccess) {
    return (
      <p className="notice" role="status">
        Restored version {restore.variables.revision.version}; it is now the current version.
      </p>
    );
  }
  if (!restore.isError) return null;
  return (
    <p className="alert" role="alert">
      {changedComment(restore.error)
        ? "This comment changed since its history was opened, so nothing was restored. The versions below are up to date now; restore again if you still want to."
        : `Could not restore version ${restore.variables?.revision.version}: ${errorMessage(restore.error)}`}
    </p>
  );
}

interface ItemProps {
  revision: CommentRevisionRecord;
  previous: CommentRevisionRecord | undefined;
  current: boolean;
  onRestore: (() => void) | undefined;
  restoring: boolean;
}

function RevisionItem({ revision, previous, current, onRestore, restoring }: ItemProps) {
  const headingId = useId();
  const changes = revisionChanges(previous, revision);
  const label = current ? " (current)" : previous ? "" : " (original)";
  return (
    <li>
      <article className="revision" aria-labelledby={headingId}>
        <div className="comment-head">
          <h3 id={headingId} className="revision-title">
            Version {revision.version}
            {label}
          </h3>
          <span>
            {revision.actor.name}, {viaLabel(revision.actor.via)}
          </span>
          <time className="subtle" dateTime={revision.createdAt}>
            {formatDateTime(revision.createdAt)}
          </time>
        </div>
        {previous ? (
          <>
            {changes.pin ? <p className="revision-pin">{changes.pin}</p> : null}
            {changes.text ? (
              <p className="comment-text revision-diff">
                <TextDiff parts={changes.text} />
              </p>
            ) : (
              <p className="subtle">Text unchanged.</p>
            )}
          </>
        ) : (
          <>
            {revision.pinned ? <p className="revision-pin">Pinned</p> : null}
            <p className="comment-text">{revision.commentDescription}</p>
          </>
        )}
        {onRestore ? (
          <div className="comment-actions">
            <button type="button" className="button button-small" onClick={onRestore} disabled={restoring}>
              Restore this version
            </button>
          </div>
        ) : null}
      </article>
    </li>
  );
}

// Insertions and deletions are marked by <ins>/<del> (underline and strike-through, not colour
// alone) and by words a screen reader speaks.
function TextDiff({ parts }: { parts: TextPart[] }) {
  return parts.map((part, index) => {
    const key = `${index}-${part.kind}`;
    if (part.kind === "added") {
      return (
        <ins key={key}>
          <span className="visually-hidden">[added: </span>
          {part.text}
          <span className="visually-hidden">]</span>
        </ins>
      );
    }
    if (part.kind === "removed") {
      return (
        <del key={key}>
          <span className="visually-hidden">[removed: </span>
          {part.text}
          <span className="visually-hidden">]</span>
        </del>
      );
    }
    return <span key={key}>{part.text}</span>;
  });
}
