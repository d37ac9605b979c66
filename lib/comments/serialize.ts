import { isoTime } from "../iso-time";
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
    pinnedAt: row.pinnedAt ? isoTime(row.pinnedAt) : null,
    postedById: row.postedById,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
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
    createdAt: isoTime(row.createdAt),
    actor: { keyId: row.actorKeyId, name: row.actorName, via: row.via },
  };
}
