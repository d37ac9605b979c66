import "server-only";
import { Prisma, read } from "../db";
import { rowType } from "../rows";
import { pageOffset, readCount } from "../sql";
import type { ListCommentsQuery } from "./schemas";
import { type PostCommentRow, serializePostComment } from "./serialize";

const postCommentRow = rowType<PostCommentRow>({ pinned: "bool", pinnedAt: "time", createdAt: "time", updatedAt: "time" });

/**
 * One post's comments: pinned first, then oldest first, ties by id (the order the
 * (postId, pinned, createdAt, id) index keeps). Null when the post does not exist, so the
 * route can answer 404 rather than an empty list. Raw SQL through read(), like every other
 * read, so on SQLite it runs off the event loop.
 */
export async function listPostComments(postId: string, query: ListCommentsQuery) {
  const [post, total, rows] = await Promise.all([
    readCount(Prisma.sql`SELECT count(*) AS "total" FROM "Post" p WHERE p."id" = ${postId}`),
    readCount(Prisma.sql`SELECT count(*) AS "total" FROM "Comment" c WHERE c."postId" = ${postId}`),
    read(
      Prisma.sql`
      SELECT c."id", c."postId", c."commentDescription", c."pinned", c."pinnedAt", c."postedById",
             c."createdAt", c."updatedAt", u."name" AS "authorName"
      FROM "Comment" c JOIN "User" u ON u."id" = c."postedById"
      WHERE c."postId" = ${postId}
      ORDER BY c."pinned" DESC, c."createdAt" ASC, c."id" ASC
      LIMIT ${query.limit} OFFSET ${pageOffset(query.page, query.limit)}`,
      postCommentRow,
    ),
  ]);
  if (!post) return null;
  return { comments: rows.map(serializePostComment), total };
}
