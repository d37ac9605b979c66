// Runs once when the server starts. On SIGTERM (a deploy, `docker stop`, a scale-down) Next.js
// stops accepting connections and exits; we close the database pool alongside, so PostgreSQL
// sees clean disconnects and queries already running finish instead of being cut off.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is set by Next.js itself, not configuration: the Edge runtime has no pool.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ db }, { log, logError }] = await Promise.all([import("./lib/db"), import("./lib/log")]);
  process.once("SIGTERM", () => {
    log("info", "SIGTERM: closing the database pool");
    db.$disconnect().catch((error: unknown) => logError("Closing the database pool failed", error));
  });
}
