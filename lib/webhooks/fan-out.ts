import "server-only";
import { decode, Prisma, type Statements, writeAll } from "../db";
import { dialect } from "../dialect";
import { rowType } from "../rows";
import { deliveryWrites, type NewDelivery } from "./outbox";

// Fan-out: a change writes its event as one row naming the endpoints it is for (fanOut), and
// the dispatcher, in the transaction of its claim, gives each of them a pending delivery, due
// and dated when the event happened, and clears the list. So the change's transaction writes
// one row, not one more per endpoint, and an event shows in an endpoint's delivery log once a
// dispatcher has run (within milliseconds of the change when one runs; see dispatcher.ts). An
// endpoint removed in between gets none; one disabled in between gets its delivery, which
// waits, pending, until the endpoint is enabled again, as it would have had it been made at
// once. On PostgreSQL the events taken are locked and skipped by other dispatchers until the
// claim commits, so no two give one event its deliveries.

/** Events one call gives their deliveries, at most. */
export const FAN_OUT_BATCH = 100;

/** A delivery leased as it was made: the dispatcher's claim takes it without another write. */
export interface LeasedDelivery {
  id: string;
  endpointId: string;
  messageId: string;
  attempts: number;
}

/** What a fan-out did: how many events it took (FAN_OUT_BATCH: more may wait), and the deliveries it leased. */
export interface FannedOut {
  taken: number;
  leased: LeasedDelivery[];
}

const waitingRow = rowType<{ id: string; fanOut: string; createdAt: Date }>({ createdAt: "time" });
const endpointRow = rowType<{ id: string; enabled: boolean }>({ enabled: "bool" });

/**
 * Gives events waiting for their deliveries (only these, when ids are given) a pending delivery
 * for each endpoint named. With a lease, up to `lease.limit` of those for enabled endpoints are
 * made leased to the caller until `lease.until`, as the claim would lease them, which saves the
 * claim's UPDATE of each (on SQLite a write under the lock every PUT needs).
 */
export async function fanOut(tx: Statements, messageIds?: readonly string[], lease?: { until: Date; limit: number }): Promise<FannedOut> {
  const none: FannedOut = { taken: 0, leased: [] };
  if (messageIds?.length === 0) return none;
  const onlyThese = messageIds ? Prisma.sql` AND "id" IN (${Prisma.join(messageIds)})` : Prisma.empty;
  // The partial index on fanOut (its migration) holds only the events waiting: a range on it
  // (a list is never empty) finds them among all the others. No ORDER BY, which could send the
  // planner along the primary key instead: the claim that follows sends the oldest first in
  // any case.
  const waiting = decode(
    await tx.$queryRaw<unknown[]>`
      SELECT "id", "fanOut", "createdAt" FROM "WebhookMessage"
      WHERE "fanOut" > ''${onlyThese}
      LIMIT ${FAN_OUT_BATCH}${dialect.skipLocked}`,
    waitingRow,
  );
  if (!waiting.length) return none;
  const named = [...new Set(waiting.flatMap((message) => message.fanOut.split(",")))];
  const enabled = new Map(
    decode(await tx.$queryRaw<unknown[]>`SELECT "id", "enabled" FROM "WebhookEndpoint" WHERE "id" IN (${Prisma.join(named)})`, endpointRow).map(
      (row) => [row.id, row.enabled],
    ),
  );
  let leases = lease?.limit ?? 0;
  const deliveries: NewDelivery[] = waiting.flatMap((message) =>
    message.fanOut
      .split(",")
      .filter((endpointId) => enabled.has(endpointId))
      .map((endpointId) => {
        const leased = lease && enabled.get(endpointId) && leases-- > 0;
        return { messageId: message.id, endpointId, at: message.createdAt, ...(leased ? { lockedUntil: lease.until } : {}) };
      }),
  );
  const { ids, statements } = deliveryWrites(deliveries);
  await writeAll(tx, [
    ...statements,
    Prisma.sql`UPDATE "WebhookMessage" SET "fanOut" = NULL WHERE "id" IN (${Prisma.join(waiting.map((message) => message.id))})`,
  ]);
  const leased = deliveries.flatMap((d, i) => (d.lockedUntil ? [{ id: ids[i] as string, endpointId: d.endpointId, messageId: d.messageId, attempts: 0 }] : []));
  return { taken: waiting.length, leased };
}
