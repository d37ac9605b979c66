// Runs once when the server starts, before it serves. The Node.js part connects the rate
// limits' store and closes the database pool on SIGTERM.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is set by Next.js itself, not configuration: the Edge runtime has no pool.
  if (process.env.NEXT_RUNTIME === "nodejs") await (await import("./instrumentation-node")).start();
}
