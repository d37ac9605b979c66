// GET /api/v1/labels - list the changelog labels
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listLabelsOperation } from "@/lib/labels/operations";
import { listLabels } from "@/lib/labels/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listLabelsOperation, async ({ query }) => {
    const { labels: list, total } = await listLabels(query);
    return { list, pagination: pagination(query.page, query.limit, total) };
  }),
});
