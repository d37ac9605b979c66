"use client";

import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useSession } from "@/components/session/session-provider";
import { formatDateTime } from "@/components/ui/format";
import type { PostCommentRecord } from "@/lib/comments/schemas";
import { ApiRequestError, errorMessage } from "@/lib/dashboard/api-client";
import { useEditComment, usePinComment } from "@/lib/dashboard/mutations";

function fieldError(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiRequestError) {
    const detail = error.detail("commentDescription");
    if (detail) return `Comment text ${detail}.`;
  }
  return errorMessage(error);
}

export function CommentItem({ comment, postId }: { comment: PostCommentRecord; postId: string }) {
  const id = useId();
  const { canWrite } = useSession();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(comment.commentDescription);
  const edit = useEditComment(postId);
  const pin = usePinComment(postId);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (editing) textarea.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  function startEditing() {
    edit.reset();
    setText(comment.commentDescription);
    setEditing(true);
  }

  function stopEditing() {
    returnFocus.current = true;
    edit.reset();
    setEditing(false);
  }

  function save(event: FormEvent) {
    event.preventDefault();
    edit.mutate({ commentId: comment.id, text }, { onSuccess: stopEditing });
  }

  const error = fieldError(edit.error);
  const headingId = `${id}-author`;
  return (
    <li>
      <article className={`comment${comment.pinned ? " pinned" : ""}`} aria-labelledby={headingId}>
        <div className="comment-head">
          <span id={headingId} className="comment-author">
            {comment.postedBy.name}
          </span>
          <time className="subtle" dateTime={comment.createdAt}>
            {formatDateTime(comment.createdAt)}
          </time>
          {comment.pinned ? <span className="badge pin-badge">Pinned</span> : null}
        </div>
        {editing ? (
          <form onSubmit={save} noValidate>
            <div className="field">
              <label htmlFor={`${id}-text`}>Comment text</label>
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
            <div className="comment-actions">
              <button type="submit" className="button button-primary button-small" disabled={edit.isPending}>
                {edit.isPending ? "Saving…" : "Save"}
              </button>
              <button type="button" className="button button-small" onClick={stopEditing}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <p className="comment-text">{comment.commentDescription}</p>
        )}
        {canWrite && !editing ? (
          <div className="comment-actions">
            <button ref={editButton} type="button" className="button button-small" onClick={startEditing}>
              Edit
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => pin.mutate({ commentId: comment.id, pinned: !comment.pinned })}
            >
              {comment.pinned ? "Unpin" : "Pin"}
            </button>
          </div>
        ) : null}
        {pin.isError ? (
          <p className="alert" role="alert">
            Could not {pin.variables?.pinned ? "pin" : "unpin"} this comment: {errorMessage(pin.error)} It is back as it was.
          </p>
        ) : null}
      </article>
    </li>
  );
}
