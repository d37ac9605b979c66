// GET /api/v1/posts/:postId - one post
import { ApiError } from "@/lib/api/errors";
import { route, withApi } from "@/lib/api/handler";
import { getPostOperation } from "@/lib/posts/operations";
import { getPost } from "@/lib/posts/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(getPostOperation, async ({ params }) => {
    const post = await getPost(params.postId);
    if (!post) throw new ApiError("not_found", `No post has the id "${params.postId}".`);
    return { data: post };
  }),
});
