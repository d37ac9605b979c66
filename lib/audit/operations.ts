import "server-only";
import { defineOperation } from "../api/define-operation";
import { auditEventRecord, listAuditEventsQuery } from "./schemas";

export const listAuditEventsOperation = defineOperation({
  method: "GET",
  path: "/audit-events",
  summary: "List the audit trail",
  description:
    "Every change the service made (comments edited, pinned or unpinned; keys created or revoked; imports; dashboard sign-ins, refused sign-ins and sign-outs), newest first. Pages by cursor: pass nextCursor as cursor for the next page; events added meanwhile never make a page skip or repeat one. Needs the admin scope.",
  scope: "admin",
  query: listAuditEventsQuery,
  record: auditEventRecord,
  list: "cursor",
});
