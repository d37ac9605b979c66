import "server-only";
import { write } from "./db";
import { logError } from "./log";

// Retention's deletes (the audit trail, the webhook delivery log), shared: a slice at a time,
// each found through an index by the caller's statement, with a turn of the event loop between
// slices. On SQLite a statement runs on the calling thread, and a loop of them awaited one after
// another never gave the event loop a turn: deleting 50,000 audit events in slices of 5,000 held
// a server's requests and timers for the whole 2.2 s (at that rate, 1.6 million would hold them
// for over a minute). With a turn between slices, the longest hold was 103-106 ms in slices of
// 1,000 and 31-36 ms in slices of 250, and the pass took about as long (1.7-1.9 s against
// 1.6-1.8), on a copy of the benchmark's database.

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows one statement deletes, at most. */
export const SLICE = 250;

/** Runs `remove(SLICE)` until it deletes fewer than SLICE rows, yielding between slices; returns the rows deleted. */
export async function deleteInSlices(remove: (limit: number) => Promise<number>): Promise<number> {
  let removed = 0;
  for (;;) {
    const count = await write(() => remove(SLICE));
    removed += count;
    if (count < SLICE) return removed;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Runs `prune` now and every hour, on a timer that never keeps the process alive; a failure is
 * logged (`what` names it) and tried again at the next hour.
 */
export function pruneHourly(what: string, prune: () => Promise<void>): void {
  const run = () =>
    prune().catch((error: unknown) => {
      logError(`Pruning ${what} failed; trying again in an hour`, error);
    });
  void run();
  setInterval(() => void run(), HOUR_MS).unref();
}
