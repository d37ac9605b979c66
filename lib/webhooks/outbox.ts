import "server-only";
import { Prisma, type Statements, writeAll } from "../db";
import { sortableId } from "../ids";
import { storedEventTypes, type WebhookEventType } from "./events";

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

/** An enabled endpoint and the event types it wants. */
export interface Subscription {
  id: string;
  events: WebhookEventType[];
}

/**
 * Every enabled endpoint and what it wants, read once per change. A change reads them before
 * it locks the row it changes: on PostgreSQL every round trip after that is time every other
 * writer of the row waits.
 */
export async function subscriptions(tx: Statements): Promise<Subscription[]> {
  const rows = await tx.$queryRaw<{ id: string; events: string }[]>`
    SELECT "id", "events" FROM "WebhookEndpoint" WHERE "enabled" = TRUE ORDER BY "id"`;
  return rows.map((row) => ({ id: row.id, events: storedEventTypes(row.events) }));
}

/** The ids of the endpoints that want an event of this type. */
export const subscribersOf = (endpoints: Subscription[], type: WebhookEventType) =>
  endpoints.filter((endpoint) => endpoint.events.includes(type)).map((endpoint) => endpoint.id);

/**
 * The writes of an event due now for these endpoints (the event, and a delivery for each), and
 * its id, the webhook-id; for a change that makes its writes together (writeAll). No endpoints,
 * no writes and no id.
 */
export function eventWrites(event: WebhookEvent, at: Date, endpointIds: string[]): { id: string | null; statements: Prisma.Sql[] } {
  if (!endpointIds.length) return { id: null, statements: [] };
  const id = sortableId("msg", at);
  const message = Prisma.sql`
    INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt") VALUES (${id}, ${event.type}, ${eventBody(event, at)}, ${at})`;
  const deliveries = endpointIds.map((endpointId) => Prisma.sql`(${sortableId("dlv", at)}, ${endpointId}, ${id}, 'pending', 0, ${at}, ${at}, ${at})`);
  const delivery = Prisma.sql`
    INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
    VALUES ${Prisma.join(deliveries)}`;
  return { id, statements: [message, delivery] };
}

/** Writes an event due now for these endpoints; returns its id, or null (and writes nothing) for none. */
export async function enqueueEvent(tx: Statements, event: WebhookEvent, at: Date, endpointIds: string[]): Promise<string | null> {
  const { id, statements } = eventWrites(event, at, endpointIds);
  await writeAll(tx, statements);
  return id;
}
