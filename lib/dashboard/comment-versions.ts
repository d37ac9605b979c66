// What the dashboard tells a moderator about a comment's versions: whether it was edited, what
// changed from one revision to the next, and what a 412 says about the version now current.

import { diffWords } from "diff";
import type { CommentRecord, CommentRevisionRecord } from "../comments/schemas";
import { ApiRequestError } from "./api-client";

type Stamps = Pick<CommentRecord, "createdAt" | "updatedAt" | "pinnedAt">;

/**
 * "Edited" from the list's own timestamps, so the list costs no extra request per comment.
 * Pinning stamps pinnedAt and updatedAt with the same instant, so a last change that equals
 * pinnedAt was a pin, not an edit. The timestamps cannot tell an unpin from an edit, nor see an
 * edit that a later pin hides; History, one click away, always has the whole story.
 */
export function isEdited(comment: Stamps): boolean {
  return comment.updatedAt !== comment.createdAt && comment.updatedAt !== comment.pinnedAt;
}

export interface TextPart {
  kind: "same" | "added" | "removed";
  text: string;
}

/** The words that changed between two texts, in reading order. */
export function textChanges(before: string, after: string): TextPart[] {
  return diffWords(before, after).map((change) => ({
    kind: change.added ? "added" : change.removed ? "removed" : "same",
    text: change.value,
  }));
}

export interface RevisionChanges {
  /** Null when the text is as in the version before. */
  text: TextPart[] | null;
  pin: "Pinned" | "Unpinned" | null;
}

/** What a revision changed from the one before it; the original has nothing before it. */
export function revisionChanges(previous: CommentRevisionRecord | undefined, revision: CommentRevisionRecord): RevisionChanges {
  if (!previous) return { text: null, pin: null };
  return {
    text: previous.commentDescription === revision.commentDescription ? null : textChanges(previous.commentDescription, revision.commentDescription),
    pin: previous.pinned === revision.pinned ? null : revision.pinned ? "Pinned" : "Unpinned",
  };
}

const VIA_LABELS: Record<CommentRevisionRecord["actor"]["via"], string> = {
  author: "wrote the original",
  api: "through the API",
  dashboard: "in the dashboard",
  cli: "on the command line",
};

export function viaLabel(via: CommentRevisionRecord["actor"]["via"]): string {
  return VIA_LABELS[via];
}

export interface Conflict {
  /** The comment as it is now. */
  current: CommentRecord;
  /** Its version, to try again against. */
  etag: string;
}

/** The version now current, when a conditional write was refused because another came first. */
export function conflictOf(error: unknown): Conflict | null {
  if (!(error instanceof ApiRequestError) || error.status !== 412 || !error.etag) return null;
  const current = error.body.current as CommentRecord | undefined;
  if (!current || typeof current.commentDescription !== "string") return null;
  return { current, etag: error.etag };
}
