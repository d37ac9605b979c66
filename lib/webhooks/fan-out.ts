import "server-only";
import { decode, Prisma, type Statements, writeAll } from "../db";
import { dialect } from "../dialect";
import { rowType } from "../rows";
import { deliveryWrites } from "./outbox";

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

const waitingRow = rowType<{ id: string; fanOut: string; createdAt: Date }>({ createdAt: "time" });

/**
 * Gives events waiting for their deliveries (only these, when ids are given) a pending delivery
 * for each endpoint named. Returns how many events it took: FAN_OUT_BATCH means more may wait.
 */
export async function fanOut(tx: Statements, messageIds?: readonly string[]): Promise<number> {
  if (messageIds?.length === 0) return 0;
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
  if (!waiting.length) return 0;
  const named = [...new Set(waiting.flatMap((message) => message.fanOut.split(",")))];
  const existing = new Set(
    (await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "WebhookEndpoint" WHERE "id" IN (${Prisma.join(named)})`).map((row) => row.id),
  );
  const deliveries = waiting.flatMap((message) =>
    message.fanOut
      .split(",")
      .filter((endpointId) => existing.has(endpointId))
      .map((endpointId) => ({ messageId: message.id, endpointId, at: message.createdAt })),
  );
  await writeAll(tx, [
    ...deliveryWrites(deliveries).statements,
    Prisma.sql`UPDATE "WebhookMessage" SET "fanOut" = NULL WHERE "id" IN (${Prisma.join(waiting.map((message) => message.id))})`,
  ]);
  return waiting.length;
}
