// GET /api/v1/changelogs - list and filter changelogs
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listChangelogsOperation } from "@/lib/changelogs/operations";
import { listChangelogs } from "@/lib/changelogs/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listChangelogsOperation, async ({ query }) => {
    const { changelogs, ...page } = await listChangelogs(query);
    return { list: changelogs, pagination: pagination(query.page, query.limit, page.total, page) };
  }),
});
