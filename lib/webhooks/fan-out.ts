import "server-only";
import { decode, Prisma, type Statements, writeAll } from "../db";
import { dialect } from "../dialect";
import { rowType } from "../rows";
import { TEST_EVENT_TYPE } from "./events";
import { deliveryWrites } from "./outbox";
import { type Target, targetOf } from "./target";

// Fan-out: a change writes its event as one row naming the endpoints it is for (fanOut), and
// the dispatcher, in the transaction of its claim, gives each of them a delivery, due and dated
// when the event happened, and clears the list. So the change's transaction writes one row, not
// one more per endpoint, and an event shows in an endpoint's delivery log once a dispatcher has
// run (within milliseconds of the change when one runs; see dispatcher.ts). The deliveries the
// claim has room for are written already leased to it, with what sending them needs read on the
// way: no second statement leases them and no second read finds their targets. An endpoint
// removed in between gets none; one disabled in between gets its delivery, which waits, pending
// and unleased, until the endpoint is enabled again, as it would have had it been made at once.
// On PostgreSQL the events taken are locked and skipped by other dispatchers until the claim
// commits, so no two give one event its deliveries.

/** Events one call gives their deliveries, at most. */
export const FAN_OUT_BATCH = 100;

/** A delivery leased to a dispatcher; `target` when it was read with the lease. */
export interface Claimed {
  id: string;
  endpointId: string;
  messageId: string;
  attempts: number;
  target?: Target;
}

/** A delivery made leased to the caller, and what sending it needs. */
export type Leased = Claimed & { target: Target };

export interface FanOut {
  /** The events given their deliveries: FAN_OUT_BATCH of them means more may wait. */
  events: string[];
  /** The deliveries leased to the caller, oldest event first. */
  leased: Leased[];
}

export interface FanOutOptions {
  /** Only these events. */
  messageIds?: readonly string[];
  /** Until when the deliveries leased are the caller's. */
  lease: Date;
  /** How many deliveries to lease, at most; the others are left pending for a later claim. */
  room: number;
}

const waitingRow = rowType<{ id: string; fanOut: string; type: string; payload: string; createdAt: Date }>({ createdAt: "time" });

const endpointRow = rowType<{
  id: string;
  enabled: boolean;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: Date | null;
}>({ enabled: "bool", previousExpiresAt: "time" });

/**
 * Gives events waiting for their deliveries (only these, when ids are given) a delivery for each
 * endpoint named, leasing up to `room` of those whose endpoint is enabled.
 */
export async function fanOut(tx: Statements, { messageIds, lease, room }: FanOutOptions): Promise<FanOut> {
  if (messageIds?.length === 0) return { events: [], leased: [] };
  const onlyThese = messageIds ? Prisma.sql` AND "id" IN (${Prisma.join(messageIds)})` : Prisma.empty;
  // The partial index on fanOut (its migration) holds only the events waiting: a range on it
  // (a list is never empty) finds them among all the others. No ORDER BY, which could send the
  // planner along the primary key instead; the events are put in order here.
  const waiting = decode(
    await tx.$queryRaw<unknown[]>`
      SELECT "id", "fanOut", "type", "payload", "createdAt" FROM "WebhookMessage"
      WHERE "fanOut" > ''${onlyThese}
      LIMIT ${FAN_OUT_BATCH}${dialect.skipLocked}`,
    waitingRow,
  ).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (!waiting.length) return { events: [], leased: [] };
  const named = [...new Set(waiting.flatMap((message) => message.fanOut.split(",")))];
  const endpoints = new Map(
    decode(
      await tx.$queryRaw<unknown[]>`
        SELECT "id", "enabled", "url", "secret", "previousSecret", "previousExpiresAt" FROM "WebhookEndpoint"
        WHERE "id" IN (${Prisma.join(named)})`,
      endpointRow,
    ).map((endpoint) => [endpoint.id, endpoint]),
  );
  const now = new Date();
  const deliveries: { messageId: string; endpointId: string; at: Date; target?: Target }[] = [];
  let leasing = 0;
  for (const message of waiting) {
    for (const endpointId of message.fanOut.split(",")) {
      const endpoint = endpoints.get(endpointId);
      if (!endpoint) continue;
      const sendable = endpoint.enabled || message.type === TEST_EVENT_TYPE;
      const target = sendable && leasing < room ? targetOf(endpoint, message, now) : undefined;
      if (target) leasing++;
      deliveries.push({ messageId: message.id, endpointId, at: message.createdAt, target });
    }
  }
  const { ids, statements } = deliveryWrites(deliveries.map((delivery) => ({ ...delivery, lockedUntil: delivery.target ? lease : null })));
  await writeAll(tx, [
    ...statements,
    Prisma.sql`UPDATE "WebhookMessage" SET "fanOut" = NULL WHERE "id" IN (${Prisma.join(waiting.map((message) => message.id))})`,
  ]);
  // deliveryWrites answers an id for each delivery, in their order.
  const leased = deliveries.flatMap(({ messageId, endpointId, target }, i) =>
    target ? [{ id: ids[i] as string, endpointId, messageId, attempts: 0, target }] : [],
  );
  return { events: waiting.map((message) => message.id), leased };
}
