import type { CommentRecord, CommentRevisionRecord, PostCommentRecord } from "./schemas";

export interface CommentRow {
  id: string;
  postId: string;
  commentDescription: string;
  pinned: boolean;
  pinnedAt: Date | null;
  postedById: string;
  createdAt: Date;
  updatedAt: Date;
  /** Not in the record: the API gives it as the ETag. */
  version: number;
}

export function serializeComment(row: CommentRow): CommentRecord {
  return {
    id: row.id,
    postId: row.postId,
    commentDescription: row.commentDescription,
    pinned: row.pinned,
    pinnedAt: row.pinnedAt?.toISOString() ?? null,
    postedById: row.postedById,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface PostCommentRow extends CommentRow {
  authorName: string;
}

export function serializePostComment(row: PostCommentRow): PostCommentRecord {
  return { ...serializeComment(row), postedBy: { id: row.postedById, name: row.authorName } };
}

export interface CommentRevisionRow {
  version: number;
  commentDescription: string;
  pinned: boolean;
  createdAt: Date;
  actorKeyId: string | null;
  actorName: string;
  via: CommentRevisionRecord["actor"]["via"];
}

export function serializeRevision(row: CommentRevisionRow): CommentRevisionRecord {
  return {
    version: row.version,
    commentDescription: row.commentDescription,
    pinned: row.pinned,
    createdAt: row.createdAt.toISOString(),
    actor: { keyId: row.actorKeyId, name: row.actorName, via: row.via },
  };
}
