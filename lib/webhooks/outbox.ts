import "server-only";
import { Prisma, type Statements } from "../db";
import { dialect } from "../dialect";
import { sortableId } from "../ids";
import type { WebhookEventType } from "./events";

// The outbox: an event and its deliveries are written in the transaction of the change that
// caused it, so they commit together, and a process killed after the commit still delivers
// once it (or any other) runs again. The dispatcher (lib/webhooks/dispatch.ts) sends them.

export interface WebhookEvent {
  type: WebhookEventType | "webhook.test";
  data: Record<string, unknown>;
}

/** The JSON body every endpoint receives for an event. */
export function eventBody(event: WebhookEvent, at: Date): string {
  return JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data });
}

const subscribedTo = (type: WebhookEvent["type"]) => Prisma.sql`
  SELECT "id" FROM "WebhookEndpoint" WHERE "enabled" = TRUE AND (',' || "events" || ',') LIKE ${`%,${type},%`} ORDER BY "id"`;

function insertDelivery(tx: Statements, endpointId: string, messageId: string, at: Date) {
  return tx.$executeRaw`
    INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
    VALUES (${sortableId("dlv", at)}, ${endpointId}, ${messageId}, 'pending', 0, ${at}, ${at}, ${at})`;
}

/**
 * Writes an event for every enabled endpoint subscribed to its type (or only for `endpointIds`,
 * as the test event does), due now. Returns the event's id (the webhook-id), or null when no
 * endpoint wants it, in which case nothing is written.
 */
export async function enqueueEvent(tx: Statements, event: WebhookEvent, at: Date, endpointIds?: string[]): Promise<string | null> {
  if (!endpointIds && dialect.writesInWith) return enqueueAtOnce(tx, event, at);
  const endpoints = endpointIds ? endpointIds.map((id) => ({ id })) : await tx.$queryRaw<{ id: string }[]>(subscribedTo(event.type));
  if (!endpoints.length) return null;
  const id = sortableId("msg", at);
  await tx.$executeRaw`
    INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt") VALUES (${id}, ${event.type}, ${eventBody(event, at)}, ${at})`;
  for (const endpoint of endpoints) await insertDelivery(tx, endpoint.id, id, at);
  return id;
}

/** Delivery ids made ahead for enqueueAtOnce: enough for every endpoint of most installations. */
const IDS_AHEAD = 8;

/**
 * enqueueEvent in one statement, where a WITH may write (PostgreSQL): which endpoints want the
 * event, the event, and a delivery for each of the first IDS_AHEAD of them. A comment PUT holds
 * the comment's row lock from its first statement to COMMIT, so every round trip in between
 * is time every other writer of that comment waits; this makes a PUT with a subscribed endpoint
 * cost no more round trips than one without. Endpoints past IDS_AHEAD take one more statement each.
 */
async function enqueueAtOnce(tx: Statements, event: WebhookEvent, at: Date): Promise<string | null> {
  const id = sortableId("msg", at);
  const ids = Array.from({ length: IDS_AHEAD }, () => sortableId("dlv", at));
  const time = Prisma.sql`${at}::timestamp(3)`;
  const [row] = await tx.$queryRaw<{ id: string | null; endpoints: number }[]>`
    WITH "endpoint" AS (
      SELECT "id", row_number() OVER (ORDER BY "id") AS "n" FROM (${subscribedTo(event.type)}) AS "subscribed"
    ), "message" AS (
      INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt")
      SELECT ${id}::text, ${event.type}::text, ${eventBody(event, at)}::text, ${time} WHERE EXISTS (SELECT 1 FROM "endpoint")
      RETURNING "id"
    ), "delivery" AS (
      INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
      SELECT (${ids}::text[])[e."n"], e."id", m."id", 'pending', 0, ${time}, ${time}, ${time}
      FROM "endpoint" e CROSS JOIN "message" m WHERE e."n" <= ${IDS_AHEAD}
    )
    SELECT (SELECT "id" FROM "message") AS "id", (SELECT count(*) FROM "endpoint")::integer AS "endpoints"`;
  if (!row?.id) return null;
  if (row.endpoints > IDS_AHEAD) {
    const rest = await tx.$queryRaw<{ id: string }[]>`${subscribedTo(event.type)} OFFSET ${IDS_AHEAD}`;
    for (const endpoint of rest) await insertDelivery(tx, endpoint.id, id, at);
  }
  return id;
}
