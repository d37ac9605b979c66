import "server-only";
import { db, write } from "../db";
import { env } from "../env";
import { log, logError } from "../log";

// Retention: the only way events leave the trail. Nothing else edits or deletes one.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
// Deleted a slice at a time, so a large backlog never holds the write lock (SQLite's only
// writer) long enough to make comment edits wait past their budget. Each slice seeks by the
// createdAt index: ordered by id instead, SQLite walked the primary key and read every event to
// find none old enough (6.5 s at 1.6 million events, on the server's thread, every hour).
const CHUNK = 5000;

/** Deletes every event older than `days` days; returns how many went. */
export async function pruneEvents(days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let removed = 0;
  for (;;) {
    const count = await write(
      () => db.$executeRaw`
      DELETE FROM "AuditEvent" WHERE "id" IN (
        SELECT "id" FROM "AuditEvent" WHERE "createdAt" < ${cutoff} ORDER BY "createdAt" LIMIT ${CHUNK})`,
    );
    removed += count;
    if (count < CHUNK) return removed;
  }
}

async function pruneQuietly(days: number): Promise<void> {
  try {
    const removed = await pruneEvents(days);
    if (removed) log("info", `audit trail: removed ${removed} events older than ${days} days (AUDIT_RETENTION_DAYS)`);
  } catch (error) {
    logError("Pruning the audit trail failed; trying again in an hour", error);
  }
}

/** With AUDIT_RETENTION_DAYS set: prune now and every hour, on a timer that never keeps the process alive. */
export function startRetention(): void {
  const days = env().AUDIT_RETENTION_DAYS;
  if (days === undefined) return;
  void pruneQuietly(days);
  setInterval(() => void pruneQuietly(days), HOUR_MS).unref();
}
