import { Redis } from "ioredis";
import pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { engineOf, env } from "../env";
import { log } from "../log";
import { ApiError } from "./errors";

// Rate limits, with rate-limiter-flexible: per API key once a request is authenticated, and
// per client address for everything that is not (no key, a wrong or revoked key, a failed
// sign-in), so guessing keys and flooding the logs are limited too. Counters live where every
// process of the service can see them: Redis when REDIS_URL is set, else the database on
// PostgreSQL, else this process's memory (SQLite serves from one process). If the shared
// store fails, this process's memory stands in (the insurance limiter) rather than failing
// the request.

export type LimitSubject = { kind: "key"; id: string } | { kind: "address"; ip: string };

interface Limiters {
  key?: RateLimiterAbstract;
  address?: RateLimiterAbstract;
}

const WINDOW_SECONDS = 60;

type Store = (keyPrefix: string, points: number) => RateLimiterAbstract;

/** Settles once the shared store can take requests (or has had its chance to). */
let ready: Promise<void> = Promise.resolve();

function storeFor(): Store {
  const config = env();
  const memory = (keyPrefix: string, points: number) => new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
  if (config.REDIS_URL) {
    // No offline queue: while Redis is away a request must not wait for it; the insurance
    // limiter answers instead.
    const client = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    client.on("error", (error) => log("warn", `Redis (rate limits): ${error.message}`));
    ready = new Promise<void>((resolve) => {
      client.once("ready", () => resolve());
      setTimeout(resolve, 3_000).unref();
    });
    return (keyPrefix, points) =>
      new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration: WINDOW_SECONDS, insuranceLimiter: memory(keyPrefix, points) });
  }
  if (engineOf(config.DATABASE_URL) === "postgres") {
    const pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      max: 2,
      connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS,
      query_timeout: 2_000,
    });
    pool.on("error", (error) => log("warn", `PostgreSQL (rate limits): ${error.message}`));
    // The table comes with the migrations ("RateLimit"), so the service never needs CREATE.
    return (keyPrefix, points) =>
      new RateLimiterPostgres({
        storeClient: pool,
        tableName: "RateLimit",
        tableCreated: true,
        keyPrefix,
        points,
        duration: WINDOW_SECONDS,
        insuranceLimiter: memory(keyPrefix, points),
      });
  }
  return memory;
}

const globalForLimits = globalThis as unknown as { feedbackLimiters?: Limiters };

function limiters(): Limiters {
  if (!globalForLimits.feedbackLimiters) {
    const config = env();
    const store = storeFor();
    globalForLimits.feedbackLimiters = {
      key: config.RATE_LIMIT_PER_MINUTE ? store("key", config.RATE_LIMIT_PER_MINUTE) : undefined,
      address: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE ? store("addr", config.RATE_LIMIT_ANONYMOUS_PER_MINUTE) : undefined,
    };
  }
  return globalForLimits.feedbackLimiters;
}

function headersOf(limiter: RateLimiterAbstract, res: RateLimiterRes): Record<string, string> {
  return {
    "RateLimit-Limit": String(limiter.points),
    "RateLimit-Remaining": String(Math.max(0, res.remainingPoints)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))),
  };
}

/**
 * Sets the limiters up before the first request, so that one does not find the shared store
 * still connecting and count in this process's memory instead. Called at server start.
 */
export async function prepareRateLimits(): Promise<void> {
  limiters();
  await ready;
}

/**
 * Counts one request against its subject. Returns the RateLimit headers to send, or throws
 * 429 (with them and Retry-After) when the subject is over its limit.
 */
export async function takeToken(subject: LimitSubject): Promise<Record<string, string>> {
  const limiter = subject.kind === "key" ? limiters().key : limiters().address;
  if (!limiter) return {};
  const id = subject.kind === "key" ? subject.id : subject.ip;
  try {
    return headersOf(limiter, await limiter.consume(id));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const headers = headersOf(limiter, rejection);
    const retryAfter = Math.max(1, Number(headers["RateLimit-Reset"]));
    const what = subject.kind === "key" ? "Too many requests for this API key" : "Too many requests without a valid API key from this address";
    throw new ApiError("rate_limited", `${what}; try again in ${retryAfter} s.`, {
      headers: { ...headers, "Retry-After": String(retryAfter) },
    });
  }
}
