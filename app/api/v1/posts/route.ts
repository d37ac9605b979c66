// GET /api/v1/posts - list and filter posts
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listPostsOperation } from "@/lib/posts/operations";
import { listPosts } from "@/lib/posts/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listPostsOperation, async ({ query }) => {
    const { posts, ...page } = await listPosts(query);
    return { list: posts, pagination: pagination(query.page, query.limit, page.total, page) };
  }),
});
