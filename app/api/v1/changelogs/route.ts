// GET /api/v1/changelogs - list and filter changelogs
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listChangelogs } from "@/lib/changelogs/queries";
import { CHANGELOG_LIST_KEYS, listChangelogsQuery } from "@/lib/changelogs/schemas";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi({ scope: "read", query: listChangelogsQuery, lists: CHANGELOG_LIST_KEYS }, async ({ query }) => {
    const { changelogs, total } = await listChangelogs(query);
    return { list: changelogs, pagination: pagination(query.page, query.limit, total) };
  }),
});
