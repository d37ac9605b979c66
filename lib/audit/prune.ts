import "server-only";
import { db } from "../db";
import { env } from "../env";
import { log } from "../log";
import { DAY_MS, deleteInSlices, pruneHourly } from "../retention";

// Retention: the only way events leave the trail. Nothing else edits or deletes one. A slice at
// a time (lib/retention.ts), so a large backlog never holds the write lock (SQLite's only
// writer) long enough to make comment edits wait past their budget, each slice found through
// the createdAt index: ordered by id instead, SQLite walked the primary key and read every event
// to find none old enough (6.5 s at 1.6 million events, on the server's thread, every hour).

/** Deletes every event older than `days` days; returns how many went. */
export function pruneEvents(days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  return deleteInSlices(
    (limit) => db.$executeRaw`
      DELETE FROM "AuditEvent" WHERE "id" IN (
        SELECT "id" FROM "AuditEvent" WHERE "createdAt" < ${cutoff} ORDER BY "createdAt" LIMIT ${limit})`,
  );
}

/** With AUDIT_RETENTION_DAYS set: prune now and every hour. */
export function startRetention(): void {
  const days = env().AUDIT_RETENTION_DAYS;
  if (days === undefined) return;
  pruneHourly("the audit trail", async () => {
    const removed = await pruneEvents(days);
    if (removed) log("info", `audit trail: removed ${removed} events older than ${days} days (AUDIT_RETENTION_DAYS)`);
  });
}
