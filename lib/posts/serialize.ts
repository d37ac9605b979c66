import { iso } from "../dates";
import type { PostRecord } from "./schemas";

export interface PostRow {
  id: string;
  title: string;
  content: string;
  boardId: string;
  boardName: string;
  statusId: string | null;
  statusName: string | null;
  statusColor: string | null;
  postedById: string;
  authorName: string;
  upvotes: number | bigint;
  commentCount: number | bigint;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export function serializePost(row: PostRow): PostRecord {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    boardId: row.boardId,
    board: { id: row.boardId, name: row.boardName },
    statusId: row.statusId,
    status:
      row.statusId === null ? null : { id: row.statusId, name: row.statusName ?? "", color: row.statusColor ?? "" },
    postedById: row.postedById,
    postedBy: { id: row.postedById, name: row.authorName },
    upvotes: Number(row.upvotes),
    commentCount: Number(row.commentCount),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
