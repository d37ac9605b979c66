// GET /api/v1/statuses - list the post statuses
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listStatuses } from "@/lib/statuses/queries";
import { listStatusesQuery } from "@/lib/statuses/schemas";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi({ scope: "read", query: listStatusesQuery }, async ({ query }) => {
    const { statuses: list, total } = await listStatuses(query);
    return { list, pagination: pagination(query.page, query.limit, total) };
  }),
});
