import { db } from "../db";
import { pageOffset } from "../sql";
import type { ListCommentsQuery } from "./schemas";
import { serializePostComment } from "./serialize";

/**
 * One post's comments: pinned first, then oldest first, ties by id (the order the
 * (postId, pinned, createdAt, id) index keeps). Null when the post does not exist, so the
 * route can answer 404 rather than an empty list.
 */
export async function listPostComments(postId: string, query: ListCommentsQuery) {
  const where = { postId };
  const [post, total, rows] = await Promise.all([
    db.post.findUnique({ where: { id: postId }, select: { id: true } }),
    db.comment.count({ where }),
    db.comment.findMany({
      where,
      orderBy: [{ pinned: "desc" }, { createdAt: "asc" }, { id: "asc" }],
      skip: pageOffset(query.page, query.limit),
      take: query.limit,
      select: {
        id: true,
        postId: true,
        commentDescription: true,
        pinned: true,
        pinnedAt: true,
        postedById: true,
        createdAt: true,
        updatedAt: true,
        postedBy: { select: { id: true, name: true } },
      },
    }),
  ]);
  if (!post) return null;
  return { comments: rows.map(serializePostComment), total };
}
