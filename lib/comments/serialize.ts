import { iso, isoOrNull } from "../dates";
import type { CommentRecord, PostCommentRecord } from "./schemas";

export interface CommentRow {
  id: string;
  postId: string;
  commentDescription: string;
  pinned: boolean | number;
  pinnedAt: Date | string | null;
  postedById: string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export function serializeComment(row: CommentRow): CommentRecord {
  return {
    id: row.id,
    postId: row.postId,
    commentDescription: row.commentDescription,
    pinned: Boolean(row.pinned),
    pinnedAt: isoOrNull(row.pinnedAt),
    postedById: row.postedById,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export interface PostCommentRow extends CommentRow {
  postedBy: { id: string; name: string };
}

export function serializePostComment(row: PostCommentRow): PostCommentRecord {
  return { ...serializeComment(row), postedBy: { id: row.postedBy.id, name: row.postedBy.name } };
}
