// GET /api/v1/posts/:postId/comments - a post's comments, pinned first, then oldest first
import { ApiError } from "@/lib/api/errors";
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listPostCommentsOperation } from "@/lib/comments/operations";
import { listPostComments } from "@/lib/comments/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listPostCommentsOperation, async ({ params, query }) => {
    const result = await listPostComments(params.postId, query);
    if (!result) throw new ApiError("not_found", `No post has the id "${params.postId}".`);
    return { list: result.comments, pagination: pagination(query.page, query.limit, result.total) };
  }),
});
