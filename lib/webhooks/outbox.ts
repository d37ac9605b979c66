import "server-only";
import type { Statements } from "../db";
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

/**
 * Writes an event for every enabled endpoint subscribed to its type (or only for `endpointIds`,
 * as the test event does), due now. Returns the event's id (the webhook-id), or null when no
 * endpoint wants it, in which case nothing is written.
 */
export async function enqueueEvent(tx: Statements, event: WebhookEvent, at: Date, endpointIds?: string[]): Promise<string | null> {
  const endpoints = endpointIds
    ? endpointIds.map((id) => ({ id }))
    : await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "WebhookEndpoint"
        WHERE "enabled" = TRUE AND (',' || "events" || ',') LIKE ${`%,${event.type},%`}`;
  if (!endpoints.length) return null;
  const id = sortableId("msg", at);
  await tx.$executeRaw`
    INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt") VALUES (${id}, ${event.type}, ${eventBody(event, at)}, ${at})`;
  for (const endpoint of endpoints) {
    await tx.$executeRaw`
      INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
      VALUES (${sortableId("dlv", at)}, ${endpoint.id}, ${id}, 'pending', 0, ${at}, ${at}, ${at})`;
  }
  return id;
}
