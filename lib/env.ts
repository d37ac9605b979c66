import os from "node:os";
import path from "node:path";
import { z } from "zod";

// The one place that reads process.env. Everything else asks this module.

const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** An on/off setting: 1, true or yes (any case) is on; unset is off. */
const flag = () =>
  z
    .string()
    .trim()
    .default("false")
    .transform((v) => ["1", "true", "yes"].includes(v.toLowerCase()));

const schema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .default("")
    .transform((url) => url || `file:${path.join(/*turbopackIgnore: true*/ process.cwd(), "data", "feedback.db")}`)
    .refine((url) => /^(file:|postgres(ql)?:\/\/)/.test(url), {
      message: "must start with file: (SQLite) or postgres:// / postgresql:// (PostgreSQL)",
    }),
  PORT: integer(3000, 1, 65535),
  HOSTNAME: z.string().default("0.0.0.0"),
  // Processes serving HTTP: 1 is server.ts alone; more forks that many workers (node:cluster)
  // that share PORT, so the service uses more than one core.
  WEB_CONCURRENCY: z.coerce
    .number({ error: "must be a whole number of processes, 1 or more" })
    .int({ error: "must be a whole number of processes, 1 or more" })
    .min(1, { error: "must be 1 or more (1 is a single process)" })
    .max(512, { error: "must be at most 512" })
    .default(1),
  // PostgreSQL pool: connections per process and how long to wait for one / for a statement.
  DATABASE_POOL_SIZE: integer(10, 1, 200),
  DATABASE_CONNECT_TIMEOUT_MS: integer(5000, 100, 120_000),
  // The longest a query may run (PostgreSQL cancels it; a SQLite read is abandoned): then 503.
  DATABASE_STATEMENT_TIMEOUT_MS: integer(15_000, 100, 600_000),
  // How long a write waits for a lock someone else holds before giving up (503 in the API).
  DATABASE_LOCK_TIMEOUT_MS: integer(5000, 0, 120_000),
  // SQLite: worker threads per process that run reads off the event loop, each with its own
  // connection. Unset, it depends on WEB_CONCURRENCY (see readWorkersFor).
  SQLITE_READ_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  // SQLite: how many MB of the database file each read thread maps into memory (mmap_size);
  // 0 turns it off. SQLite maps at most 2,047 MB.
  SQLITE_MMAP_MB: integer(2047, 0, 2047),
  // Requests per minute a single API key may make; 0 turns the limit off.
  RATE_LIMIT_PER_MINUTE: integer(6000, 0, 10_000_000),
  // Requests per minute one client address may make before authentication (unknown or missing
  // keys, sign-in attempts); 0 turns the limit off.
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: integer(300, 0, 10_000_000),
  // Where rate-limit counters live so every process shares them: Redis when set, else the
  // database on PostgreSQL, else this process's memory (SQLite, one process).
  REDIS_URL: z.string().trim().optional().transform((v) => v || undefined),
  // Webhooks may go to http URLs, and to loopback, private and link-local addresses: for tests
  // and local development, never in production.
  WEBHOOK_ALLOW_HTTP: flag(),
  WEBHOOK_ALLOW_PRIVATE: flag(),
  // The dispatcher loop inside the server; false leaves delivery to the cron route and the
  // command line (and holds deliveries back in tests).
  WEBHOOK_DISPATCH: z
    .string()
    .trim()
    .default("true")
    .transform((v) => !["0", "false", "no"].includes(v.toLowerCase())),
  // How often the loop looks for due deliveries, and how long one POST may take in all.
  WEBHOOK_POLL_MS: integer(1000, 50, 3_600_000),
  WEBHOOK_TIMEOUT_MS: integer(10_000, 100, 120_000),
  // The pauses before each retry; after the last, a delivery is failed. Shortened by tests.
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .trim()
    .default("30000,120000,600000,3600000,21600000,86400000")
    // An empty entry ("100,,200") is refused, not read as a pause of 0.
    .transform((v) => v.split(",").map((part) => (part.trim() === "" ? Number.NaN : Number(part.trim()))))
    .pipe(
      z
        .array(z.number().int({ error: "must be whole milliseconds" }).min(0).max(30 * 86_400_000), {
          error: "must be a comma-separated list of milliseconds",
        })
        .min(1, { error: "give at least one delay" }),
    ),
  // Days the delivery log (attempts, finished deliveries) is kept.
  WEBHOOK_LOG_DAYS: integer(30, 1, 36_500),
  // The bearer secret POST /api/cron/webhooks requires; unset, the route refuses every call.
  CRON_SECRET: z.string().trim().optional().transform((v) => v || undefined),
  // Set by Vercel on its deployments: no long-lived process, so no loop; requests deliver
  // through after() and Vercel Cron instead.
  VERCEL: flag(),
  // Believe X-Forwarded-For / -Host / -Proto only behind a proxy that sets them.
  TRUST_PROXY: z
    .string()
    .trim()
    .default("false")
    .transform((v) => ["1", "true", "yes"].includes(v.toLowerCase())),
  SESSION_TTL_HOURS: integer(24 * 7, 1, 24 * 365),
  // Days the audit trail keeps an event; unset keeps every event forever.
  AUDIT_RETENTION_DAYS: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z.coerce
        .number<string>({ error: "must be a whole number of days, 1 or more" })
        .int({ error: "must be a whole number of days, 1 or more" })
        .min(1, { error: "must be 1 or more (leave it unset to keep events forever)" })
        .max(36_500, { error: "must be at most 36500" })
        .optional(),
    ),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // text: one readable line per event; json: one JSON object per line, for log shippers.
  LOG_FORMAT: z.enum(["text", "json"]).default("text"),
  // How long a client has to send a whole request, its headers and body; one slower than that
  // is disconnected. Node's own defaults (60 s for the headers, 300 s for the whole) let a
  // client that trickles a byte at a time hold a connection for five minutes.
  REQUEST_TIMEOUT_MS: integer(30_000, 1000, 600_000),
  // How long a connection kept alive may wait idle for its next request before the server closes
  // it (Node's default). Behind a load balancer that keeps idle connections longer, set it above
  // the balancer's idle timeout, or the balancer may send a request on a connection just closed.
  KEEP_ALIVE_TIMEOUT_MS: integer(5000, 1000, 3_600_000),
  // A serving process warns when its event loop was held this long (lib/event-loop.ts); 0: never.
  EVENT_LOOP_WARN_MS: integer(50, 0, 60_000),
});

/**
 * Two read threads in one process; with several processes, two each only while that leaves a
 * core per thread, else one, so WEB_CONCURRENCY processes and their readers do not outnumber
 * the cores several times over.
 */
function readWorkersFor(processes: number): number {
  return processes === 1 || processes * 2 <= os.availableParallelism() ? 2 : 1;
}

const withDefaults = schema.transform((config) => ({
  ...config,
  SQLITE_READ_WORKERS: config.SQLITE_READ_WORKERS ?? readWorkersFor(config.WEB_CONCURRENCY),
}));

export type Env = z.infer<typeof withDefaults>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The settings an environment gives, or an error naming every variable it refuses. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = withDefaults.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}

/**
 * Whether this code runs in the Next.js server (rather than the command line). Next.js's
 * compiler writes NEXT_RUNTIME into its server bundles; it is not in the process environment.
 */
export function inNextServer(): boolean {
  return process.env.NEXT_RUNTIME === "nodejs";
}

export type Engine = "sqlite" | "postgres";

export function engineOf(url: string): Engine {
  return url.startsWith("file:") ? "sqlite" : "postgres";
}

/** The SQLite file a `file:` URL names, resolved against the working directory. */
export function sqlitePath(url: string): string {
  const rest = url.slice("file:".length).split("?")[0] ?? "";
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), rest);
}
