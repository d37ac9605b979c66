// POST /api/v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver - the same event again, same webhook-id
import { route, withApi } from "@/lib/api/handler";
import { changeContextOf } from "@/lib/webhooks/context";
import { redeliver } from "@/lib/webhooks/deliveries";
import { redeliverOperation } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApi(redeliverOperation, async (input) => ({
    data: await redeliver(input.params.webhookId, input.params.deliveryId, changeContextOf(input)),
  })),
});
