// GET /api/v1/posts - list and filter posts
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listPosts } from "@/lib/posts/queries";
import { listPostsQuery, POST_LIST_KEYS } from "@/lib/posts/schemas";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi({ scope: "read", query: listPostsQuery, lists: POST_LIST_KEYS }, async ({ query }) => {
    const { posts, total } = await listPosts(query);
    return { list: posts, pagination: pagination(query.page, query.limit, total) };
  }),
});
