import { isoTime } from "../iso-time";
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
  upvotes: number;
  commentCount: number;
  createdAt: Date;
  updatedAt: Date;
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
    upvotes: row.upvotes,
    commentCount: row.commentCount,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}
