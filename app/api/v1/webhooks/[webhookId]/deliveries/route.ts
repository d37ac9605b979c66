// GET /api/v1/webhooks/:webhookId/deliveries - the endpoint's delivery log, newest first, by cursor
import { route, withApi } from "@/lib/api/handler";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { listDeliveriesOperation } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listDeliveriesOperation, async ({ params, query }) => listDeliveries(params.webhookId, query.limit, query.cursor)),
});
