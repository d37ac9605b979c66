import "server-only";
import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";

// A key's requests counted in this process's memory while the key is far from its limit, and
// added to the shared store (PostgreSQL, Redis or the cluster primary) a batch at a time. On
// PostgreSQL each request used to cost a statement of its own, a round trip that took 10-25% of
// a read's throughput (alternated, one process, a million posts); close to the limit every
// request is counted in the store as before, so the limit holds across processes.

/** The part of rate-limiter-flexible's limiters that the service uses. */
export type Limiter = Pick<RateLimiterAbstract, "points" | "consume">;

/** How often counts waiting in memory are added to the store. */
export const FLUSH_MS = 100;
/**
 * Requests are answered from memory only while at least this many would be left after them, as
 * well as half the limit: a limit of this or less is counted exactly, each request in the store.
 */
export const MIN_MARGIN = 100;
/** A key's count, as the store last gave it, is trusted for this long without asking again. */
const FRESH_MS = 1_000;

interface KeyState {
  /** The store's count for the key's window, as of its last answer. */
  consumed: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
  /** When the store last answered for the key. */
  seenAt: number;
  /** Requests answered from memory, not yet added to the store. */
  pending: number;
  /** Requests on their way to the store, which its last answer may not count yet. */
  sending: number;
}

/**
 * Counts a request in memory while, by the store's last count and this process's requests
 * since, at least the margin would be left after it: half the key's limit, and MIN_MARGIN
 * requests. Otherwise, or when that count is older than FRESH_MS or from an ended window, counts
 * it in the store together with the requests waiting. Waiting requests go to the store every
 * FLUSH_MS, so the other processes' requests the margin has to cover are at most those of one
 * flush: the limit is exceeded only by a key sending more than half its per-minute limit within
 * about FLUSH_MS (at the default 6,000 a minute, 30,000 requests a second). A batch counted in
 * the store after its window ended counts in the next one: a key can be refused up to one
 * flush's requests early. While answered from memory, RateLimit-Remaining leaves out the other
 * processes' requests since their last batch.
 */
export class BatchedLimiter implements Limiter {
  private readonly keys = new Map<string, KeyState>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Limiter,
    private readonly onError: (error: unknown) => void,
    private readonly flushMs = FLUSH_MS,
  ) {}

  get points(): number {
    return this.store.points;
  }

  private get margin(): number {
    return Math.max(this.points / 2, MIN_MARGIN);
  }

  async consume(key: string | number): Promise<RateLimiterRes> {
    const id = String(key);
    const now = Date.now();
    const state = this.keys.get(id);
    const known = state ? state.consumed + state.sending + state.pending : 0;
    if (state && now < state.resetAt && now - state.seenAt < FRESH_MS && known + 1 <= this.points - this.margin) {
      state.pending += 1;
      this.schedule();
      return new RateLimiterRes(this.points - known - 1, state.resetAt - now, known + 1, false);
    }
    const points = 1 + (state?.pending ?? 0);
    if (state) state.pending = 0;
    return this.count(id, points);
  }

  /** Adds `points` to the key's count in the store, and notes the store's answer. */
  private async count(id: string, points: number): Promise<RateLimiterRes> {
    const state = this.keys.get(id);
    if (state) state.sending += points;
    try {
      return this.note(id, await this.store.consume(id, points));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) this.note(id, rejection);
      throw rejection;
    } finally {
      if (state) state.sending -= points;
    }
  }

  private note(id: string, res: RateLimiterRes): RateLimiterRes {
    const now = Date.now();
    const resetAt = now + res.msBeforeNext;
    const state = this.keys.get(id);
    if (!state) {
      this.keys.set(id, { consumed: res.consumedPoints, resetAt, seenAt: now, pending: 0, sending: 0 });
      return res;
    }
    // Answers can come back out of order; within one window the count only grows.
    const sameWindow = now < state.resetAt;
    state.consumed = sameWindow ? Math.max(state.consumed, res.consumedPoints) : res.consumedPoints;
    state.resetAt = sameWindow ? Math.max(state.resetAt, resetAt) : resetAt;
    state.seenAt = now;
    return res;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.flushMs);
    this.timer.unref();
  }

  /** Adds every waiting count to the store, and forgets keys whose window has ended. */
  flush(): Promise<void> {
    const now = Date.now();
    const counting: Promise<unknown>[] = [];
    for (const [id, state] of this.keys) {
      if (state.pending) {
        const points = state.pending;
        state.pending = 0;
        counting.push(this.count(id, points).catch((rejection: unknown) => rejection instanceof RateLimiterRes || this.onError(rejection)));
      } else if (now >= state.resetAt) {
        this.keys.delete(id);
      }
    }
    return Promise.all(counting).then(() => undefined);
  }
}
