import "server-only";
import { randomBytes } from "node:crypto";

// Sortable ids: a prefix, the time in milliseconds, a per-process sequence within the same
// millisecond, then randomness (so ids from several processes never collide). Fixed width and
// lowercase base 36, so bytewise order (both engines compare these ids bytewise) is time order.

let lastMs = 0;
let sequence = 0;

export function sortableId(prefix: string, at: Date): string {
  const ms = at.getTime();
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  const random = BigInt(`0x${randomBytes(8).toString("hex")}`).toString(36).padStart(13, "0");
  return `${prefix}_${ms.toString(36).padStart(9, "0")}${sequence.toString(36).padStart(3, "0")}${random}`;
}
