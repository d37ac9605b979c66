import { prepareRateLimits } from "./lib/api/rate-limit";
import { startRetention } from "./lib/audit/prune";
import { db } from "./lib/db";
import { log, logError } from "./lib/log";
import { warmUpSearch } from "./lib/sqlite/warm-up";
import { startDispatcher, stopDispatcher } from "./lib/webhooks/dispatcher";
import { startWebhookRetention } from "./lib/webhooks/prune";

// On SIGTERM (a deploy, `docker stop`, a scale-down) Next.js stops accepting connections and
// exits; we close the database pool alongside, so PostgreSQL sees clean disconnects and
// queries already running finish instead of being cut off.
process.once("SIGTERM", () => {
  log("info", "SIGTERM: closing the database pool");
  stopDispatcher();
  db.$disconnect().catch((error: unknown) => logError("Closing the database pool failed", error));
});

/**
 * Before the first request: connect the rate limits' shared store; start pruning the audit
 * trail and the webhook delivery log; start delivering webhooks; start reading the search aids.
 */
export async function start(): Promise<void> {
  await prepareRateLimits();
  startRetention();
  startWebhookRetention();
  startDispatcher();
  warmUpSearch();
}
