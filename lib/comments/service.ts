import { ApiError } from "../api/errors";
import { db } from "../db";
import type { UpdateCommentBody } from "./schemas";
import { serializeComment } from "./serialize";

const commentSelect = {
  id: true,
  postId: true,
  commentDescription: true,
  pinned: true,
  pinnedAt: true,
  postedById: true,
  createdAt: true,
  updatedAt: true,
} as const;

/**
 * Edits and/or pins one comment. Pinning a pinned comment keeps its pinnedAt; unpinning
 * clears it; every successful update moves updatedAt. One transaction, so a refused or failed
 * update changes nothing.
 */
export async function updateComment(id: string, body: UpdateCommentBody) {
  const updated = await db.$transaction(async (tx) => {
    const current = await tx.comment.findUnique({ where: { id }, select: { pinned: true, updatedAt: true } });
    if (!current) throw new ApiError("not_found", `No comment has the id "${id}".`);
    // Strictly later than the last update, even within the same millisecond.
    const now = new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1));
    const pin =
      body.pinComment === undefined || body.pinComment === current.pinned
        ? {}
        : { pinned: body.pinComment, pinnedAt: body.pinComment ? now : null };
    return tx.comment.update({
      where: { id },
      data: {
        ...(body.commentDescription !== undefined ? { commentDescription: body.commentDescription } : {}),
        ...pin,
        updatedAt: now,
      },
      select: commentSelect,
    });
  });
  return serializeComment(updated);
}
