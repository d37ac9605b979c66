// GET /api/v1/labels - list the changelog labels
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listLabels } from "@/lib/labels/queries";
import { listLabelsQuery } from "@/lib/labels/schemas";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi({ scope: "read", query: listLabelsQuery }, async ({ query }) => {
    const { labels: list, total } = await listLabels(query);
    return { list, pagination: pagination(query.page, query.limit, total) };
  }),
});
