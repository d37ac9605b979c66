import type { CommentRecord, PostCommentRecord } from "./schemas";

export interface CommentRow {
  id: string;
  postId: string;
  commentDescription: string;
  pinned: boolean;
  pinnedAt: Date | null;
  postedById: string;
  createdAt: Date;
  updatedAt: Date;
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
