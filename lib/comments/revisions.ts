import type { Actor } from "../audit/record";

/** One row of CommentRevision but its comment's id, its names of type N (text, or SQL reading it). */
export interface Revision<N> {
  version: number;
  commentDescription: string;
  pinned: boolean;
  createdAt: Date;
  actorKeyId: string | null;
  actorName: N;
  via: string;
}

/**
 * The revisions a change to a comment writes, through the API or an import alike: the new
 * version, by whoever made the change; and on the comment's first change (version 1: every
 * later version was written by the change that made it) first the original it replaces, as
 * created or imported, by its author, dated by its updatedAt.
 */
export function changeRevisions<N>(
  before: { version: number; commentDescription: string; pinned: boolean; updatedAt: Date },
  after: { commentDescription: string; pinned: boolean },
  names: { author: N; actor: N },
  actor: Actor,
  now: Date,
): Revision<N>[] {
  const original: Revision<N> = {
    version: 1,
    commentDescription: before.commentDescription,
    pinned: before.pinned,
    createdAt: before.updatedAt,
    actorKeyId: null,
    actorName: names.author,
    via: "author",
  };
  const changed: Revision<N> = {
    version: before.version + 1,
    commentDescription: after.commentDescription,
    pinned: after.pinned,
    createdAt: now,
    actorKeyId: actor.keyId,
    actorName: names.actor,
    via: actor.via,
  };
  return before.version === 1 ? [original, changed] : [changed];
}
