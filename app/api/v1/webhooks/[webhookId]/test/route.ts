// POST /api/v1/webhooks/:webhookId/test - queue a webhook.test event for this endpoint alone
import { route, withApi } from "@/lib/api/handler";
import { changeContextOf } from "@/lib/webhooks/context";
import { sendTest } from "@/lib/webhooks/endpoints";
import { testWebhookOperation } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApi(testWebhookOperation, async (input) => ({
    data: {
      eventId: await sendTest(input.params.webhookId, changeContextOf(input)),
    },
  })),
});
