import "server-only";
import { z } from "zod";
import { filterParam, intParam, listParam } from "../api/query";
import { isoDateTime } from "../dates";
import { idCursorParam } from "../api/id-cursor";
import { AUDIT_ACTIONS, AUDIT_VIAS, type AuditAction } from "./record";

const dateTimeParam = (description: string) =>
  z
    .string()
    .trim()
    .pipe(z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, such as 2026-01-02T03:04:05Z" }))
    .transform((value) => new Date(value))
    .optional()
    .meta({ description });

export const listAuditEventsQuery = z
  .object({
    cursor: idCursorParam(
      "evt",
      "Start after the last event of an earlier page: its nextCursor. Stays valid while events are added.",
    ),
    limit: intParam(1, 100, 50).meta({ description: "Events per page, 1 to 100.", default: 50 }),
    action: listParam(AUDIT_ACTIONS.length, "actions")
      .refine((actions) => !actions || actions.every((a) => (AUDIT_ACTIONS as readonly string[]).includes(a)), {
        message: `must be among ${AUDIT_ACTIONS.join(", ")}`,
      })
      .transform((actions) => actions as AuditAction[] | undefined)
      .meta({ description: "Only these actions, comma-separated and/or repeated." }),
    resourceType: filterParam.meta({ description: "Only events about this kind of resource: comment, key, import, session, webhook." }),
    resourceId: filterParam.meta({ description: "Only events about the resource with this id." }),
    actorKeyId: filterParam.meta({ description: "Only events by this key." }),
    since: dateTimeParam("Only events at or after this time (ISO 8601)."),
    until: dateTimeParam("Only events at or before this time (ISO 8601)."),
  })
  .refine((q) => !q.since || !q.until || q.since <= q.until, { path: ["since"], message: "must not be after until" });

export type ListAuditEventsQuery = z.output<typeof listAuditEventsQuery>;

export const auditEventRecord = z
  .object({
    id: z.string().meta({ description: "Sortable: a later event has a greater id." }),
    createdAt: isoDateTime,
    action: z.enum(AUDIT_ACTIONS),
    actor: z
      .object({ keyId: z.string().nullable(), name: z.string(), via: z.enum(AUDIT_VIAS) })
      .meta({ description: "The key that acted (its name then) and how; the command line acts with no key." }),
    resource: z.object({ type: z.string(), id: z.string().nullable() }),
    changes: z
      .record(z.string(), z.unknown())
      .meta({ description: "Each changed field as {from, to}; for import.applied, the counts of each kind of record." }),
    request: z
      .object({ id: z.string().nullable(), ip: z.string().nullable(), userAgent: z.string().nullable() })
      .meta({ description: "The HTTP request behind the change; null for the command line." }),
  })
  .meta({ id: "AuditEvent" });

export type AuditEventRecord = z.infer<typeof auditEventRecord>;
