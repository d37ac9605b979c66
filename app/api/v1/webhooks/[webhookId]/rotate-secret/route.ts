// POST /api/v1/webhooks/:webhookId/rotate-secret - a new secret, shown once; the old one signs 24 h more
import { route, withApi } from "@/lib/api/handler";
import { changeContextOf } from "@/lib/webhooks/context";
import { rotateSecret } from "@/lib/webhooks/endpoints";
import { rotateWebhookSecretOperation } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApi(rotateWebhookSecretOperation, async (input) => ({
    data: await rotateSecret(input.params.webhookId, changeContextOf(input)),
  })),
});
