// When a failed delivery is tried again. Pure, so it is unit-tested without a clock.

/** A retry lands within this share either side of its delay, so failures of one outage do not all come back at once. */
export const JITTER = 0.2;

/** An endpoint that has failed every delivery for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/**
 * The pause before the next attempt, after `attempts` attempts (1 or more) have failed, or null
 * when the schedule is used up and the delivery has failed for good. `random` is in [0, 1).
 */
export function retryDelay(attempts: number, delays: readonly number[], random: number = Math.random()): number | null {
  const base = delays[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random));
}
