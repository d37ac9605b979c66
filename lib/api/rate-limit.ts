import "server-only";
import cluster from "node:cluster";
import { Redis } from "ioredis";
import pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { engineOf, env } from "../env";
import { log } from "../log";
import { BatchedLimiter, type Limiter } from "./batched-limiter";
import { ApiError } from "./errors";

// Rate limits, with rate-limiter-flexible: per API key once a request is authenticated, and
// per client address for everything that is not (no key, a wrong or revoked key, a failed
// sign-in), so guessing keys and flooding the logs are limited too. Counters live where every
// process of the service can see them: Redis when REDIS_URL is set, else the database on
// PostgreSQL, else memory: this process's, or, when server.ts runs WEB_CONCURRENCY workers,
// the primary's, which every worker asks over IPC. If the shared store fails, memory stands in
// (the insurance limiter) rather than failing the request. A key's requests reach a shared store
// in batches while the key is far from its limit (lib/api/batched-limiter.ts).

export type LimitSubject = { kind: "key"; id: string } | { kind: "address"; ip: string };

interface Limiters {
  key?: Limiter;
  address?: Limiter;
}

const WINDOW_SECONDS = 60;

type Store = (keyPrefix: string, points: number) => RateLimiterAbstract;

/** Where counters live, and whether another process can see them (every store but this process's memory). */
interface Stores {
  store: Store;
  shared: boolean;
}

/** Settles once the shared store can take requests (or has had its chance to). */
let ready: Promise<void> = Promise.resolve();

const memory: Store = (keyPrefix, points) => new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });

/**
 * Counters in the cluster primary's memory (server.ts starts its RateLimiterClusterMaster, which
 * makes one store per keyPrefix as workers announce their limiters), so N workers share one
 * count instead of each allowing the whole limit. The library's cluster limiter takes no
 * insurance limiter: when the primary does not answer within timeoutMs it rejects with an Error,
 * and then this process's memory answers.
 */
class PrimaryMemoryLimiter extends RateLimiterCluster {
  private readonly insurance: RateLimiterAbstract;

  constructor(keyPrefix: string, points: number) {
    super({ keyPrefix, points, duration: WINDOW_SECONDS, timeoutMs: 1_000 });
    this.insurance = memory(keyPrefix, points);
  }

  override consume(key: string | number, points?: number, options?: Record<string, unknown>): Promise<RateLimiterRes> {
    return super.consume(key, points, options).catch((rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) throw rejection;
      return this.insurance.consume(key, points, options);
    });
  }
}

/** One of server.ts's workers, whose primary keeps the memory counters (not another cluster manager's). */
const inServerCluster = () => cluster.isWorker && env().WEB_CONCURRENCY > 1;

function storeFor(): Stores {
  const config = env();
  const local: Store = inServerCluster() ? (keyPrefix, points) => new PrimaryMemoryLimiter(keyPrefix, points) : memory;
  if (config.REDIS_URL) {
    // No offline queue: while Redis is away a request must not wait for it; the insurance
    // limiter answers instead.
    const client = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    client.on("error", (error) => log("warn", `Redis (rate limits): ${error.message}`));
    ready = new Promise<void>((resolve) => {
      client.once("ready", () => resolve());
      setTimeout(resolve, 3_000).unref();
    });
    return {
      store: (keyPrefix, points) =>
        new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration: WINDOW_SECONDS, insuranceLimiter: local(keyPrefix, points) }),
      shared: true,
    };
  }
  if (engineOf(config.DATABASE_URL) === "postgres") {
    const pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      max: 2,
      connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS,
      query_timeout: 2_000,
    });
    pool.on("error", (error) => log("warn", `PostgreSQL (rate limits): ${error.message}`));
    // The table comes with the migrations ("RateLimit"), so the service never needs CREATE. It
    // is unlogged (the rate_limit_unlogged migration): a count commits without a WAL flush.
    return {
      store: (keyPrefix, points) =>
        new RateLimiterPostgres({
          storeClient: pool,
          tableName: "RateLimit",
          tableCreated: true,
          keyPrefix,
          points,
          duration: WINDOW_SECONDS,
          insuranceLimiter: local(keyPrefix, points),
        }),
      shared: true,
    };
  }
  return { store: local, shared: inServerCluster() };
}

const globalForLimits = globalThis as unknown as { feedbackLimiters?: Limiters };

function limiters(): Limiters {
  if (!globalForLimits.feedbackLimiters) {
    const config = env();
    const { store, shared } = storeFor();
    // Per key only: a service has few keys, where client addresses are many, and a request
    // without a valid key is refused or signs in, seldom in a stream.
    const failed = (error: unknown) => log("warn", "adding rate-limit counts to the shared store failed", { reason: String(error) });
    const byKey = (points: number): Limiter => (shared ? new BatchedLimiter(store("key", points), failed) : store("key", points));
    globalForLimits.feedbackLimiters = {
      key: config.RATE_LIMIT_PER_MINUTE ? byKey(config.RATE_LIMIT_PER_MINUTE) : undefined,
      address: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE ? store("addr", config.RATE_LIMIT_ANONYMOUS_PER_MINUTE) : undefined,
    };
  }
  return globalForLimits.feedbackLimiters;
}

function headersOf(limiter: Limiter, res: RateLimiterRes): Record<string, string> {
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
