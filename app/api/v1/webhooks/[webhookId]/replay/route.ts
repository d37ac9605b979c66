// POST /api/v1/webhooks/:webhookId/replay?since=ISO - every event of the endpoint since then, again
import { route, withApi } from "@/lib/api/handler";
import { changeContextOf } from "@/lib/webhooks/context";
import { replay } from "@/lib/webhooks/deliveries";
import { replayOperation } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApi(replayOperation, async (input) => ({
    data: {
      since: input.query.since.toISOString(),
      count: await replay(input.params.webhookId, input.query.since, changeContextOf(input)),
    },
  })),
});
