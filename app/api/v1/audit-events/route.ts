// GET /api/v1/audit-events - the audit trail, newest first, by cursor (admin scope)
import { route, withApi } from "@/lib/api/handler";
import { listAuditEventsOperation } from "@/lib/audit/operations";
import { listAuditEvents } from "@/lib/audit/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listAuditEventsOperation, async ({ query: { cursor, limit, action, ...filter } }) =>
    listAuditEvents({ ...filter, actions: action }, limit, cursor),
  ),
});
