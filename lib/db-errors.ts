import "server-only";
import { ReadQueueFullError, ReadTimeoutError } from "./sqlite/read-pool";

// Which database failures mean "not now" rather than "broken": the database is down, cannot
// be reached, is frozen past a timeout, or another writer holds the lock past the write
// budget. The API answers those with 503 and Retry-After, and recovers by itself once the
// database does. Errors reach us wrapped (Prisma's error around the driver adapter's around
// the driver's), so every layer's codes are gathered before deciding.

/** SQLite's "someone else holds the lock" (the adapter reports it as a socket timeout). */
const LOCK_CODES = new Set(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED", "SocketTimeout"]);

const UNAVAILABLE_CODES = new Set([
  ...LOCK_CODES,
  // Node's network errors, from pg.
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  // PostgreSQL: lock_timeout, statement_timeout, shutting down, starting up, out of connections.
  "55P03",
  "57014",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  // Prisma: cannot reach, timed out, server closed the connection, pool exhausted.
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  // Prisma: a transaction that could not start within its wait (every connection, or SQLite's
  // one writer, busy with others).
  "P2028",
  // Driver adapter kinds for the same.
  "DatabaseNotReachable",
  "ConnectionClosed",
  "TooManyConnections",
]);

const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /Client has encountered a connection error/i,
  /database is locked/i,
];

interface Facts {
  codes: Set<string>;
  messages: string[];
}

function gather(error: unknown, facts: Facts = { codes: new Set(), messages: [] }, depth = 0): Facts {
  if (!error || typeof error !== "object" || depth > 6) return facts;
  const e = error as Record<string, unknown>;
  for (const field of ["code", "originalCode", "kind", "errno"]) {
    if (typeof e[field] === "string") facts.codes.add(e[field] as string);
  }
  for (const field of ["message", "originalMessage"]) {
    if (typeof e[field] === "string") facts.messages.push(e[field] as string);
  }
  gather(e.cause, facts, depth + 1);
  const meta = e.meta as Record<string, unknown> | undefined;
  if (meta) gather(meta.driverAdapterError, facts, depth + 1);
  // pg reports a failed connection to several addresses (localhost: ::1 and 127.0.0.1) together.
  if (Array.isArray(e.errors)) for (const inner of e.errors) gather(inner, facts, depth + 1);
  return facts;
}

const lockBusy = ({ codes, messages }: Facts) => [...codes].some((c) => LOCK_CODES.has(c)) || messages.some((m) => /database is locked/i.test(m));

/** Another writer holds the lock (SQLite): worth trying again shortly. */
export function isLockBusy(error: unknown): boolean {
  return lockBusy(gather(error));
}

/**
 * A write waited for a lock another writer held, past DATABASE_LOCK_TIMEOUT_MS: SQLite's busy
 * lock, or PostgreSQL's lock_timeout (55P03). Its statement failed, and its transaction with it.
 */
export function waitedTooLongForLock(error: unknown): boolean {
  const facts = gather(error);
  return lockBusy(facts) || facts.codes.has("55P03");
}

/** The database cannot serve this now; the client should try again later. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof ReadTimeoutError || error instanceof ReadQueueFullError) return true;
  const { codes, messages } = gather(error);
  if ([...codes].some((c) => UNAVAILABLE_CODES.has(c) || c.startsWith("08"))) return true;
  return messages.some((m) => UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(m)));
}
