import "server-only";
import { ApiError } from "../api/errors";
import { db, Prisma, write } from "../db";
import type { UpdateCommentBody } from "./schemas";
import { type CommentRow, serializeComment } from "./serialize";

let lastStamp = 0;

/** Now, but strictly later than the last time this process handed out. */
function stamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

/**
 * Edits and/or pins one comment in a single UPDATE, so it is atomic without holding a
 * transaction open across round trips (SQLite has one writer; an interactive transaction
 * queues every other write behind it). The right-hand sides all see the row as it was:
 * pinning a pinned comment keeps its pinnedAt, pinning an unpinned one stamps it, unpinning
 * clears it. Every successful update moves updatedAt. A refused update never reaches here.
 */
export async function updateComment(id: string, body: UpdateCommentBody) {
  const now = stamp();
  const set: Prisma.Sql[] = [];
  if (body.commentDescription !== undefined) set.push(Prisma.sql`"commentDescription" = ${body.commentDescription}`);
  if (body.pinComment === true) {
    set.push(Prisma.sql`"pinnedAt" = CASE WHEN "pinned" THEN "pinnedAt" ELSE ${now} END`, Prisma.sql`"pinned" = TRUE`);
  } else if (body.pinComment === false) {
    set.push(Prisma.sql`"pinnedAt" = NULL`, Prisma.sql`"pinned" = FALSE`);
  }
  set.push(Prisma.sql`"updatedAt" = ${now}`);

  const [row] = await write(
    () => db.$queryRaw<CommentRow[]>`
      UPDATE "Comment" SET ${Prisma.join(set, ", ")} WHERE "id" = ${id}
      RETURNING "id", "postId", "commentDescription", "pinned", "pinnedAt", "postedById", "createdAt", "updatedAt"`,
  );
  if (!row) throw new ApiError("not_found", `No comment has the id "${id}".`);
  return serializeComment(row);
}
