import "server-only";
import { randomBytes } from "node:crypto";

// Sortable ids: a prefix, the time in milliseconds, a per-process sequence within the same
// millisecond, then randomness (so ids from several processes never collide). Fixed width and
// lowercase base 36, so bytewise order (both engines compare these ids bytewise) is time order.

let lastMs = 0;
let sequence = 0;

/**
 * Randomness drawn 4 KiB at a time: one call into the system's generator for 512 ids instead
 * of one each (a comment PUT with a webhook makes five ids; drawn one by one they cost about as
 * much CPU as its whole transaction on SQLite).
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

function random64(): bigint {
  if (offset + 8 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const value = pool.readBigUInt64BE(offset);
  offset += 8;
  return value;
}

export function sortableId(prefix: string, at: Date): string {
  const ms = at.getTime();
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  const random = random64().toString(36).padStart(13, "0");
  return `${prefix}_${ms.toString(36).padStart(9, "0")}${sequence.toString(36).padStart(3, "0")}${random}`;
}
