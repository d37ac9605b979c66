// Runs once when the server starts. The Node.js part closes the database pool on SIGTERM.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is set by Next.js itself, not configuration: the Edge runtime has no pool.
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}
