import { env } from "./env";

// Logs go to stderr as single lines; stdout is kept for command results.

const levels = ["debug", "info", "warn", "error", "silent"] as const;
type Level = Exclude<(typeof levels)[number], "silent">;

function enabled(level: Level): boolean {
  return levels.indexOf(level) >= levels.indexOf(env().LOG_LEVEL);
}

export function log(level: Level, message: string): void {
  if (enabled(level)) process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`);
}

/** Logs an unexpected error with its request id; the client only ever sees the id. */
export function logError(message: string, error: unknown, requestId?: string): void {
  const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log("error", `${requestId ? `[${requestId}] ` : ""}${message}: ${cause}`);
}
