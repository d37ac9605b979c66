// GET /api/v1/webhooks - the endpoints; POST - add one (its secret is in the answer, once)
import { route, withApi } from "@/lib/api/handler";
import { changeContextOf } from "@/lib/webhooks/context";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { createWebhookOperation, listWebhooksOperation } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listWebhooksOperation, async () => ({
    items: await listEndpoints(),
    nextCursor: null,
  })),
  POST: withApi(createWebhookOperation, async (input) => ({
    data: await createEndpoint(input.body, changeContextOf(input)),
  })),
});
