import { prepareRateLimits } from "./lib/api/rate-limit";
import { startRetention } from "./lib/audit/prune";
import { db } from "./lib/db";
import { log, logError } from "./lib/log";

// On SIGTERM (a deploy, `docker stop`, a scale-down) Next.js stops accepting connections and
// exits; we close the database pool alongside, so PostgreSQL sees clean disconnects and
// queries already running finish instead of being cut off.
process.once("SIGTERM", () => {
  log("info", "SIGTERM: closing the database pool");
  db.$disconnect().catch((error: unknown) => logError("Closing the database pool failed", error));
});

/** Before the first request: connect the rate limits' shared store; start pruning the audit trail. */
export async function start(): Promise<void> {
  await prepareRateLimits();
  startRetention();
}
