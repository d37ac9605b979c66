import "server-only";
import { recordEvent } from "../audit/record";
import { ApiError } from "../api/errors";
import { db, type Tx, write } from "../db";
import { encodeIdCursor } from "../api/id-cursor";
import type { ChangeContext } from "./endpoints";
import { deliveryWrites } from "./outbox";
import type { WebhookDeliveryRecord } from "./schemas";

// An endpoint's delivery log, and sending its events again. A redelivery or a replay is a new
// pending delivery of the same message (the same webhook-id, the same signed body), never the
// old delivery made due again: the old one keeps its status and its attempts as they happened,
// a delivered one can be sent again as simply as a failed one, and a delivery a dispatcher is
// working on at that moment is left alone, so nothing races its claim.

const DELIVERY_SELECT = {
  id: true,
  messageId: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  createdAt: true,
  updatedAt: true,
  message: { select: { type: true } },
  log: {
    select: {
      attemptedAt: true,
      statusCode: true,
      durationMs: true,
      responseBody: true,
      error: true,
    },
    orderBy: { id: "asc" },
  },
} as const;

interface DeliveryRow {
  id: string;
  messageId: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  updatedAt: Date;
  message: { type: string };
  log: {
    attemptedAt: Date;
    statusCode: number | null;
    durationMs: number;
    responseBody: string | null;
    error: string | null;
  }[];
}

function serializeDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  const status = row.status as WebhookDeliveryRecord["status"];
  return {
    id: row.id,
    eventId: row.messageId,
    type: row.message.type,
    status,
    attempts: row.attempts,
    nextAttemptAt: status === "pending" ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    log: row.log.map((a) => ({
      ...a,
      attemptedAt: a.attemptedAt.toISOString(),
    })),
  };
}

const noWebhook = (id: string) => new ApiError("not_found", `No webhook has the id "${id}".`);

async function assertEndpoint(client: Tx | typeof db, id: string): Promise<void> {
  const found = await client.webhookEndpoint.findUnique({
    where: { id },
    select: { id: true },
  });
  if (!found) throw noWebhook(id);
}

/** One page of an endpoint's deliveries, newest first, and the cursor of the next page. */
export async function listDeliveries(endpointId: string, limit: number, cursor?: string) {
  await assertEndpoint(db, endpointId);
  // One more than the page shows tells whether there is a next page without counting.
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId, ...(cursor ? { id: { lt: cursor } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
    select: DELIVERY_SELECT,
  });
  const items = rows.slice(0, limit).map(serializeDelivery);
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > limit && last ? encodeIdCursor(last.id) : null,
  };
}

/**
 * New pending deliveries of these messages to the endpoint, due now; returns their ids. An
 * INSERT per thousand, so a replay of a month of events holds the write lock for a few
 * statements, not a round trip per event.
 */
async function queueAgain(tx: Tx, endpointId: string, messageIds: readonly string[], now: Date): Promise<string[]> {
  const { ids, statements } = deliveryWrites(messageIds.map((messageId) => ({ messageId, endpointId, at: now })));
  for (const statement of statements) await tx.$executeRaw(statement);
  return ids;
}

/** Sends one delivery's event again to its endpoint, with the same webhook-id. Returns the new delivery. */
export async function redeliver(endpointId: string, deliveryId: string, context: ChangeContext): Promise<WebhookDeliveryRecord> {
  const now = new Date();
  return write(() =>
    db.$transaction(async (tx) => {
      await assertEndpoint(tx, endpointId);
      const original = await tx.webhookDelivery.findFirst({
        where: { id: deliveryId, endpointId },
        select: { messageId: true },
      });
      if (!original) throw new ApiError("not_found", `Webhook "${endpointId}" has no delivery with the id "${deliveryId}".`);
      const [id] = await queueAgain(tx, endpointId, [original.messageId], now);
      await recordEvent(
        tx,
        {
          action: "webhook.redelivered",
          resourceType: "webhook",
          resourceId: endpointId,
          changes: { deliveryId, eventId: original.messageId },
          actor: context.actor,
          request: context.request,
        },
        now,
      );
      return serializeDelivery(
        await tx.webhookDelivery.findUniqueOrThrow({
          where: { id },
          select: DELIVERY_SELECT,
        }),
      );
    }),
  );
}

/**
 * Sends again every event this endpoint was given since `since`, each once, with its own
 * webhook-id, in the order they happened. Events still pending for it are skipped: they are
 * on their way already. Returns how many were queued.
 */
export async function replay(endpointId: string, since: Date, context: ChangeContext): Promise<number> {
  const now = new Date();
  return write(() =>
    db.$transaction(async (tx) => {
      await assertEndpoint(tx, endpointId);
      const deliveries = await tx.webhookDelivery.findMany({
        where: { endpointId, message: { createdAt: { gte: since } } },
        select: { messageId: true, status: true },
        orderBy: { messageId: "asc" },
      });
      const pending = new Set(deliveries.filter((d) => d.status === "pending").map((d) => d.messageId));
      const messageIds = [...new Set(deliveries.map((d) => d.messageId))].filter((id) => !pending.has(id));
      await queueAgain(tx, endpointId, messageIds, now);
      await recordEvent(
        tx,
        {
          action: "webhook.replayed",
          resourceType: "webhook",
          resourceId: endpointId,
          changes: { since: since.toISOString(), count: messageIds.length },
          actor: context.actor,
          request: context.request,
        },
        now,
      );
      return messageIds.length;
    }),
  );
}
