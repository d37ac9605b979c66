import "server-only";
import { Prisma, type Statements, writeAll } from "../db";
import { sortableId } from "../ids";
import { storedEventTypes, type WebhookEventType } from "./events";

// The outbox: an event is written in the transaction of the change that caused it, so they
// commit together, and a process killed after the commit still delivers once it (or any other)
// runs again. A change writes its event as one row naming the endpoints it is for; the
// dispatcher gives each of them a delivery (lib/webhooks/fan-out.ts) and sends them
// (lib/webhooks/dispatch.ts). A delivery row per endpoint, written by the change itself, cost a
// comment PUT on SQLite about 0.05 ms of its transaction's 0.19 (five more pages to the log).

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
 * The write of an event for these endpoints, which the dispatcher gives its deliveries, and its
 * id, the webhook-id; for a change that makes its writes together (writeAll). No endpoints, no
 * write and no id.
 */
export function eventWrites(event: WebhookEvent, at: Date, endpointIds: string[]): { id: string | null; statements: Prisma.Sql[] } {
  if (!endpointIds.length) return { id: null, statements: [] };
  const id = sortableId("msg", at);
  return { id, statements: [messageWrite(id, event, at, endpointIds.join(","))] };
}

/** The event's row; `fanOut`: the endpoints the dispatcher is still to give a delivery, or null. */
const messageWrite = (id: string, event: WebhookEvent, at: Date, fanOut: string | null) => Prisma.sql`
  INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt", "fanOut")
  VALUES (${id}, ${event.type}, ${eventBody(event, at)}, ${at}, ${fanOut})`;

/**
 * Deliveries one INSERT takes, at most: seven bound values a row, well within SQLite's limit of
 * 32,766 a statement (and PostgreSQL's 65,535).
 */
const DELIVERY_ROWS = 1000;

/**
 * The writes of a pending delivery of each of these messages to its endpoint, due and dated
 * `at`, and leased until `lockedUntil` when one is given (an INSERT per DELIVERY_ROWS), and the
 * new deliveries' ids in the same order.
 */
export function deliveryWrites(deliveries: { messageId: string; endpointId: string; at: Date; lockedUntil?: Date | null }[]): {
  ids: string[];
  statements: Prisma.Sql[];
} {
  const ids = deliveries.map(({ at }) => sortableId("dlv", at));
  const rows = deliveries.map(
    ({ messageId, endpointId, at, lockedUntil }, i) =>
      Prisma.sql`(${ids[i]}, ${endpointId}, ${messageId}, 'pending', 0, ${at}, ${lockedUntil ?? null}, ${at}, ${at})`,
  );
  const statements: Prisma.Sql[] = [];
  for (let i = 0; i < rows.length; i += DELIVERY_ROWS) {
    statements.push(Prisma.sql`
      INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "lockedUntil", "createdAt", "updatedAt")
      VALUES ${Prisma.join(rows.slice(i, i + DELIVERY_ROWS))}`);
  }
  return { ids, statements };
}

/**
 * Writes an event and its deliveries, due now, at once: for a change made rarely (an endpoint's
 * test event), whose delivery shows in the endpoint's log as soon as it commits. Returns the
 * event's id, or null (and writes nothing) for no endpoints.
 */
export async function enqueueEvent(tx: Statements, event: WebhookEvent, at: Date, endpointIds: string[]): Promise<string | null> {
  if (!endpointIds.length) return null;
  const id = sortableId("msg", at);
  await writeAll(tx, [
    messageWrite(id, event, at, null),
    ...deliveryWrites(endpointIds.map((endpointId) => ({ messageId: id, endpointId, at }))).statements,
  ]);
  return id;
}
