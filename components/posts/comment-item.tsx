"use client";

import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useSession } from "@/components/session/session-provider";
import { formatDateTime } from "@/components/ui/format";
import type { CommentRecord, PostCommentRecord } from "@/lib/comments/schemas";
import { ApiRequestError, errorMessage } from "@/lib/dashboard/api-client";
import { type Conflict, conflictOf, isEdited } from "@/lib/dashboard/comment-versions";
import { changedComment, useEditComment, useOpenComment, usePinComment } from "@/lib/dashboard/mutations";
import { CommentHistory } from "./comment-history";

function fieldError(error: unknown): string | null {
  if (!error || conflictOf(error)) return null;
  if (error instanceof ApiRequestError) {
    const detail = error.detail("commentDescription");
    if (detail) return `Comment text ${detail}.`;
  }
  return errorMessage(error);
}

/** The version being edited: the text and ETag the moderator was shown when they pressed Edit. */
interface Draft {
  etag: string | null;
  /** Set when the comment had changed since the page showed it. */
  refreshed: boolean;
}

export function CommentItem({ comment, postId }: { comment: PostCommentRecord; postId: string }) {
  const id = useId();
  const { canWrite } = useSession();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [text, setText] = useState(comment.commentDescription);
  const [historyOpen, setHistoryOpen] = useState(false);
  const open = useOpenComment(postId);
  const edit = useEditComment(postId);
  const pin = usePinComment(postId);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const historyButton = useRef<HTMLButtonElement>(null);
  // Which button gets focus back once the editor or History closes.
  const returnFocus = useRef<"edit" | "history" | null>(null);
  const editing = draft !== null;
  const conflict = conflictOf(edit.error);

  useEffect(() => {
    if (editing) textarea.current?.focus();
    else if (!historyOpen && returnFocus.current) {
      (returnFocus.current === "edit" ? editButton : historyButton).current?.focus();
      returnFocus.current = null;
    }
  }, [editing, historyOpen]);

  function startEditing() {
    edit.reset();
    open.mutate(comment.id, {
      onSuccess: ({ body, etag }) => {
        setText(body.data.commentDescription);
        setDraft({ etag, refreshed: body.data.updatedAt !== comment.updatedAt });
      },
    });
  }

  function stopEditing() {
    returnFocus.current = "edit";
    edit.reset();
    setDraft(null);
  }

  // After a conflict, "Keep mine" saves against the version the 412 named as current.
  function save(event: FormEvent) {
    event.preventDefault();
    const etag = conflict ? conflict.etag : (draft?.etag ?? null);
    edit.mutate({ commentId: comment.id, text, etag }, { onSuccess: stopEditing });
  }

  function closeHistory() {
    returnFocus.current = "history";
    setHistoryOpen(false);
  }

  const error = fieldError(edit.error);
  const headingId = `${id}-author`;
  const textField = (
    <div className="field">
      <label htmlFor={`${id}-text`}>{conflict ? "Your text" : "Comment text"}</label>
      <textarea
        ref={textarea}
        id={`${id}-text`}
        className="textarea"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") stopEditing();
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
  return (
    // The id is the comment's address on its post's page (/comments/:id leads there).
    <li id={`comment-${comment.id}`}>
      <article className={`comment${comment.pinned ? " pinned" : ""}`} aria-labelledby={headingId}>
        <div className="comment-head">
          <span id={headingId} className="comment-author">
            {comment.postedBy.name}
          </span>
          <time className="subtle" dateTime={comment.createdAt}>
            {formatDateTime(comment.createdAt)}
          </time>
          {isEdited(comment) ? (
            <span className="subtle edited" title={`Last changed ${formatDateTime(comment.updatedAt)}`}>
              Edited
            </span>
          ) : null}
          {comment.pinned ? <span className="badge pin-badge">Pinned</span> : null}
        </div>
        {editing ? (
          <form onSubmit={save} noValidate>
            {draft.refreshed && !conflict ? (
              <p className="hint" role="status">
                This comment changed since the page showed it; the editor holds its current text.
              </p>
            ) : null}
            {conflict ? <ConflictView conflict={conflict} field={textField} /> : textField}
            <div className="comment-actions">
              {conflict ? (
                <>
                  <button type="submit" className="button button-primary button-small" disabled={edit.isPending}>
                    Keep mine
                  </button>
                  <button type="button" className="button button-small" onClick={stopEditing}>
                    Use current
                  </button>
                </>
              ) : (
                <>
                  <button type="submit" className="button button-primary button-small" disabled={edit.isPending}>
                    {edit.isPending ? "Saving…" : "Save"}
                  </button>
                  <button type="button" className="button button-small" onClick={stopEditing}>
                    Cancel
                  </button>
                </>
              )}
            </div>
          </form>
        ) : (
          <p className="comment-text">{comment.commentDescription}</p>
        )}
        {!editing ? (
          <div className="comment-actions">
            {canWrite ? (
              <>
                <button
                  ref={editButton}
                  type="button"
                  className="button button-small"
                  onClick={startEditing}
                  disabled={open.isPending}
                  aria-busy={open.isPending || undefined}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => pin.mutate({ commentId: comment.id, pinned: !comment.pinned, shownUpdatedAt: comment.updatedAt })}
                >
                  {comment.pinned ? "Unpin" : "Pin"}
                </button>
              </>
            ) : null}
            <button ref={historyButton} type="button" className="button button-small" onClick={() => setHistoryOpen(true)}>
              History
            </button>
          </div>
        ) : null}
        {open.isError ? (
          <p className="alert" role="alert">
            Could not open this comment for editing: {errorMessage(open.error)}
          </p>
        ) : null}
        {pin.isError ? <PinError error={pin.error} pinned={pin.variables?.pinned ?? false} /> : null}
        {historyOpen ? (
          <CommentHistory
            commentId={comment.id}
            postId={postId}
            author={comment.postedBy.name}
            canWrite={canWrite}
            onClose={closeHistory}
          />
        ) : null}
      </article>
    </li>
  );
}

function ConflictView({ conflict, field }: { conflict: Conflict; field: ReactNode }) {
  return (
    <>
      <p className="alert" role="alert">
        This comment changed since you opened it. Your text is kept; the current text is beside it. Keep yours (it
        replaces the current text) or use the current one.
      </p>
      <div className="conflict">
        {field}
        <figure className="field conflict-current">
          <figcaption className="field-label">Current text</figcaption>
          <p className="comment-text">{conflict.current.commentDescription}</p>
        </figure>
      </div>
    </>
  );
}

function PinError({ error, pinned }: { error: unknown; pinned: boolean }) {
  const current: CommentRecord | null = changedComment(error);
  return (
    <p className="alert" role="alert">
      {current
        ? `This comment changed since it was shown, so it was not ${pinned ? "pinned" : "unpinned"}. It shows its current version now; ${pinned ? "pin" : "unpin"} it again if you still want to.`
        : `Could not ${pinned ? "pin" : "unpin"} this comment: ${errorMessage(error)} It is back as it was.`}
    </p>
  );
}
