import pino from "pino";
import { env } from "./env";

// Logs go to stderr, one line per event; stdout is kept for command results. Records are made
// by pino either way: LOG_FORMAT=json writes them as they are, for log shippers; text turns
// each into one readable line.

type Level = "debug" | "info" | "warn" | "error";
type Fields = Record<string, unknown>;

/** What one /api/v1 request logs. Never a key, a cookie or a body: only who (keyId) and what. */
export interface RequestRecord {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  keyId?: string;
}

function textValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

function textLine(line: string): string {
  const { time, level, msg, err, ...fields } = JSON.parse(line) as Fields & { err?: { stack?: string; message?: string } };
  const pairs = Object.entries(fields).map(([k, v]) => ` ${k}=${textValue(v)}`);
  const cause = err ? `: ${err.stack ?? err.message}` : "";
  return `${time} ${level} ${msg}${pairs.join("")}${cause}\n`;
}

let instance: pino.Logger | undefined;

function logger(): pino.Logger {
  if (!instance) {
    const { LOG_LEVEL, LOG_FORMAT } = env();
    const destination =
      LOG_FORMAT === "json" ? pino.destination({ fd: 2, sync: true }) : { write: (line: string) => process.stderr.write(textLine(line)) };
    instance = pino(
      {
        level: LOG_LEVEL,
        base: undefined,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        // No caller logs headers today; if one ever does, its secrets still stay out.
        redact: { paths: ["authorization", "cookie", "headers.authorization", "headers.cookie"], censor: "[redacted]" },
      },
      destination,
    );
  }
  return instance;
}

export function log(level: Level, message: string, fields: Fields = {}): void {
  logger()[level](fields, message);
}

/** Logs an unexpected error with its request id; the client only ever sees the id. */
export function logError(message: string, error: unknown, requestId?: string): void {
  const err = error instanceof Error ? error : new Error(String(error));
  logger().error(requestId ? { requestId, err } : { err }, message);
}

/** Whether request lines are written at all (LOG_LEVEL info or debug), so a caller can skip making them. */
export function requestsLogged(): boolean {
  return logger().isLevelEnabled("info");
}

export function logRequest(record: RequestRecord): void {
  logger().info(record, "request");
}
