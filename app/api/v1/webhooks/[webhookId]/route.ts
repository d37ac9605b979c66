// GET /api/v1/webhooks/:webhookId - one endpoint; PATCH - change it; DELETE - remove it
import { ApiError } from "@/lib/api/errors";
import { route, withApi } from "@/lib/api/handler";
import { changeContextOf } from "@/lib/webhooks/context";
import { findEndpoint, removeEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { deleteWebhookOperation, getWebhookOperation, updateWebhookOperation } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(getWebhookOperation, async ({ params }) => {
    const found = await findEndpoint(params.webhookId);
    if (!found) throw new ApiError("not_found", `No webhook has the id "${params.webhookId}".`);
    return { data: found };
  }),
  PATCH: withApi(updateWebhookOperation, async (input) => ({
    data: await updateEndpoint(input.params.webhookId, input.body, changeContextOf(input)),
  })),
  DELETE: withApi(deleteWebhookOperation, async (input) => {
    await removeEndpoint(input.params.webhookId, changeContextOf(input));
    return { data: null };
  }),
});
