import "server-only";
import { db } from "../db";
import { env } from "../env";
import { log } from "../log";
import { DAY_MS, deleteInSlices, pruneHourly } from "../retention";

// The delivery log's retention (WEBHOOK_LOG_DAYS): attempts older than that, finished
// deliveries (delivered or failed) last touched before it, and events no delivery refers to any
// more. Pending deliveries stay whatever their age: they are not done yet; so do events still
// waiting for theirs (lib/webhooks/fan-out.ts).

// A slice at a time (lib/retention.ts), so a large backlog never holds SQLite's one write lock
// for long, each slice found through an index. For finished deliveries that is (status,
// nextAttemptAt): a delivery is sent once due and recorded after, so its last nextAttemptAt is
// never after its updatedAt, and the bound on nextAttemptAt leaves out nothing the one on
// updatedAt takes. Without it SQLite read every finished delivery to find none old enough
// (0.8-2.4 s at 1.4 million, on the server's thread, every hour).

export interface PruneCounts {
  attempts: number;
  deliveries: number;
  messages: number;
}

/** Removes what is older than `days` days; returns how many of each went. */
export async function pruneWebhookLog(days: number, now = new Date()): Promise<PruneCounts> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const attempts = await deleteInSlices(
    (limit) => db.$executeRaw`
      DELETE FROM "WebhookAttempt" WHERE "id" IN (
        SELECT "id" FROM "WebhookAttempt" WHERE "attemptedAt" < ${cutoff} ORDER BY "attemptedAt" LIMIT ${limit})`,
  );
  const deliveries = await deleteInSlices(
    (limit) => db.$executeRaw`
      DELETE FROM "WebhookDelivery" WHERE "id" IN (
        SELECT "id" FROM "WebhookDelivery"
        WHERE "status" IN ('delivered', 'failed') AND "nextAttemptAt" < ${cutoff} AND "updatedAt" < ${cutoff} LIMIT ${limit})`,
  );
  const messages = await deleteInSlices(
    (limit) => db.$executeRaw`
      DELETE FROM "WebhookMessage" WHERE "id" IN (
        SELECT m."id" FROM "WebhookMessage" m
        WHERE m."createdAt" < ${cutoff} AND m."fanOut" IS NULL
          AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."messageId" = m."id")
        LIMIT ${limit})`,
  );
  return { attempts, deliveries, messages };
}

/** Prunes now and every hour, as the audit trail's retention does. */
export function startWebhookRetention(): void {
  const days = env().WEBHOOK_LOG_DAYS;
  pruneHourly("the webhook delivery log", async () => {
    const { attempts, deliveries, messages } = await pruneWebhookLog(days);
    if (attempts + deliveries + messages) {
      log("info", `webhook log: removed ${attempts} attempts, ${deliveries} deliveries and ${messages} events older than ${days} days (WEBHOOK_LOG_DAYS)`);
    }
  });
}
