import "server-only";
import { Prisma, read } from "../db";
import { rowType } from "../rows";
import { where } from "../sql";
import { encodeIdCursor } from "../api/id-cursor";
import type { AuditAction, Via } from "./record";
import type { AuditEventRecord } from "./schemas";

// Reading the trail: newest first for the API and `audit list`, oldest first for `audit export`,
// always by id, which is the events' time order. A page starts after the last id shown, so an
// event added meanwhile (always with a greater id) never shifts one.

export interface AuditFilter {
  actions?: AuditAction[];
  resourceType?: string;
  resourceId?: string;
  actorKeyId?: string;
  since?: Date;
  until?: Date;
}

interface EventRow {
  id: string;
  createdAt: Date;
  action: string;
  actorKeyId: string | null;
  actorName: string;
  via: string;
  resourceType: string;
  resourceId: string | null;
  changes: string;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

const eventRow = rowType<EventRow>({ createdAt: "time" });

export function serializeEvent(row: EventRow): AuditEventRecord {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    action: row.action as AuditAction,
    actor: { keyId: row.actorKeyId, name: row.actorName, via: row.via as Via },
    resource: { type: row.resourceType, id: row.resourceId },
    changes: JSON.parse(row.changes) as Record<string, unknown>,
    request: { id: row.requestId, ip: row.ip, userAgent: row.userAgent },
  };
}

function conditions(filter: AuditFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (filter.actions?.length) out.push(Prisma.sql`"action" IN (${Prisma.join(filter.actions)})`);
  if (filter.resourceType !== undefined) out.push(Prisma.sql`"resourceType" = ${filter.resourceType}`);
  if (filter.resourceId !== undefined) out.push(Prisma.sql`"resourceId" = ${filter.resourceId}`);
  if (filter.actorKeyId !== undefined) out.push(Prisma.sql`"actorKeyId" = ${filter.actorKeyId}`);
  if (filter.since) out.push(Prisma.sql`"createdAt" >= ${filter.since}`);
  if (filter.until) out.push(Prisma.sql`"createdAt" <= ${filter.until}`);
  return out;
}

/** Up to `limit` events matching the filter, in id order, after the id `after` in that order. */
export async function readEvents(
  filter: AuditFilter,
  page: { order: "newest" | "oldest"; limit: number; after?: string },
): Promise<AuditEventRecord[]> {
  const newest = page.order === "newest";
  const all = conditions(filter);
  if (page.after !== undefined) all.push(newest ? Prisma.sql`"id" < ${page.after}` : Prisma.sql`"id" > ${page.after}`);
  const rows = await read(
    Prisma.sql`
    SELECT "id", "createdAt", "action", "actorKeyId", "actorName", "via", "resourceType", "resourceId", "changes",
           "requestId", "ip", "userAgent"
    FROM "AuditEvent" ${where(all)}
    ORDER BY "id" ${Prisma.raw(newest ? "DESC" : "ASC")} LIMIT ${page.limit}`,
    eventRow,
  );
  return rows.map(serializeEvent);
}

/** One page of the API's list, newest first, and the cursor of the next page (null on the last). */
export async function listAuditEvents(filter: AuditFilter, limit: number, cursor?: string) {
  // One more than the page shows tells whether there is a next page without counting.
  const events = await readEvents(filter, { order: "newest", limit: limit + 1, after: cursor });
  const items = events.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: events.length > limit && last ? encodeIdCursor(last.id) : null };
}
