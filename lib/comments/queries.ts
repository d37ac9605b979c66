import "server-only";
import { Prisma, read } from "../db";
import { rowType } from "../rows";
import { pageOffset, readCount } from "../sql";
import type { ListCommentsQuery } from "./schemas";
import {
  type CommentRevisionRow,
  type CommentRow,
  type PostCommentRow,
  serializeComment,
  serializePostComment,
  serializeRevision,
} from "./serialize";

const commentKinds = { pinned: "bool", pinnedAt: "time", createdAt: "time", updatedAt: "time", version: "int" } as const;
export const commentRow = rowType<CommentRow>(commentKinds);
const postCommentRow = rowType<PostCommentRow>(commentKinds);
const revisionRow = rowType<CommentRevisionRow>({ version: "int", pinned: "bool", createdAt: "time" });

/** The columns of a comment's record, for every statement that returns one. */
export const COMMENT_COLUMNS = Prisma.sql`"id", "postId", "commentDescription", "pinned", "pinnedAt", "postedById", "createdAt", "updatedAt", "version"`;

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
             c."createdAt", c."updatedAt", c."version", u."name" AS "authorName"
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

/** One comment's record and its version (its ETag), or null. */
export async function findComment(id: string) {
  const [row] = await read(Prisma.sql`SELECT ${COMMENT_COLUMNS} FROM "Comment" WHERE "id" = ${id}`, commentRow, { lookup: true });
  return row ? { comment: serializeComment(row), version: row.version } : null;
}

/**
 * Every version of a comment, oldest first. A comment never changed has no revision rows: its
 * one version is the comment as it stands, made by its author. Null for an unknown comment.
 */
export async function listRevisions(id: string) {
  const [comment, rows] = await Promise.all([
    read(
      Prisma.sql`
      SELECT c."version", c."commentDescription", c."pinned", c."updatedAt" AS "createdAt", NULL AS "actorKeyId",
             u."name" AS "actorName", 'author' AS "via"
      FROM "Comment" c JOIN "User" u ON u."id" = c."postedById"
      WHERE c."id" = ${id}`,
      revisionRow,
    ),
    read(
      Prisma.sql`
      SELECT "version", "commentDescription", "pinned", "createdAt", "actorKeyId", "actorName", "via"
      FROM "CommentRevision" WHERE "commentId" = ${id} ORDER BY "version"`,
      revisionRow,
    ),
  ]);
  const [original] = comment;
  if (!original) return null;
  return (rows.length ? rows : [original]).map(serializeRevision);
}
