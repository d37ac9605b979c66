import "server-only";
import pg from "pg";
import { createAdapter, postgresPoolConfig } from "./db-adapter";
import { isLockBusy } from "./db-errors";
import { dialect } from "./dialect";
import { env, sqlitePath } from "./env";
import { log } from "./log";
import { Prisma } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import type { RowType } from "./rows";
import { ReadPool } from "./sqlite/read-pool";

export { Prisma };

// The one Prisma client. Both engines' clients are generated from the same models, so they
// share one API; the SQLite client's type stands for both.
export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const globalForDb = globalThis as unknown as { feedbackDb?: Db };

function createClient(): Db {
  const url = env().DATABASE_URL;
  const adapter = createAdapter(url);
  if (dialect.engine === "sqlite") {
    // The file is in WAL mode (set by `feedback migrate`, it persists), so readers never wait
    // for the writer. A second writer waits for the lock in the command line; in the server it
    // fails at once and write() tries again without blocking (see there).
    return new SqliteClient({ adapter: adapter as never });
  }
  return new PostgresClient({ adapter: adapter as never }) as unknown as Db;
}

export const db: Db = globalForDb.feedbackDb ?? createClient();
globalForDb.feedbackDb = db;

const globalForReader = globalThis as unknown as { feedbackReadPool?: ReadPool; feedbackPgReadPool?: pg.Pool };

function sqliteReadPool(): ReadPool {
  if (!globalForReader.feedbackReadPool) {
    const config = env();
    globalForReader.feedbackReadPool = new ReadPool({
      file: sqlitePath(config.DATABASE_URL),
      size: config.SQLITE_READ_WORKERS,
      budgetMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      busyTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
      maxQueue: 1000,
    });
  }
  return globalForReader.feedbackReadPool;
}

// pg's default parsers read a timestamp without time zone in the process's zone; the columns
// hold UTC (as Prisma writes them).
const TIMESTAMP = 1114;
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP && format !== "binary"
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * PostgreSQL reads skip Prisma's client: through it a query costs about 0.5 ms of this
 * process's CPU before the server sees it, through pg about 0.1 ms (measured on one changelog by
 * id). Its own pool, with the same settings; writes and transactions stay with Prisma.
 */
function postgresReadPool(): pg.Pool {
  if (!globalForReader.feedbackPgReadPool) {
    globalForReader.feedbackPgReadPool = new pg.Pool({
      ...postgresPoolConfig(env().DATABASE_URL),
      types: pgTypes,
      // The command line reads too, and must still exit when its work is done.
      allowExitOnIdle: true,
    });
    // An idle connection the server drops (a restart) is replaced on the next read.
    globalForReader.feedbackPgReadPool.on("error", (error) => log("warn", "an idle database connection failed", { reason: error.message }));
  }
  return globalForReader.feedbackPgReadPool;
}

/**
 * Runs a read (a SELECT written with Prisma.sql) and returns its rows as `type` describes them:
 * times as Date, booleans as boolean, numbers as number, whichever engine ran it. On SQLite it
 * runs on a worker thread with its own read-only connection and kept statements
 * (lib/sqlite/read-pool.ts): the event loop never waits for SQLite, and it skips the per-query
 * cost of Prisma's client. On PostgreSQL it runs on pg's pool (postgresReadPool above).
 */
export async function read<T>(query: Prisma.Sql, type: RowType<T>): Promise<T[]> {
  const rows = (
    dialect.engine === "sqlite"
      ? await sqliteReadPool().run(query.sql, query.values.map(dialect.encode))
      : (await postgresReadPool().query({ text: query.text, values: query.values.map(dialect.encode) })).rows
  ) as Record<string, unknown>[];
  // Column by column, and only the columns this engine returns in another type.
  for (const [column, kind] of type.kinds) {
    const decode = dialect.decode[kind];
    if (decode) for (const row of rows) row[column] = decode(row[column]);
  }
  return rows as T[];
}

export async function closeReaders(): Promise<void> {
  await globalForReader.feedbackReadPool?.close();
  globalForReader.feedbackReadPool = undefined;
  await globalForReader.feedbackPgReadPool?.end();
  globalForReader.feedbackPgReadPool = undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a write that may meet another writer's lock. On PostgreSQL the wait is the server's
 * (lock_timeout, off the event loop). On SQLite the server's connection never waits (a busy
 * timeout would sleep on the event loop and stall every request), so a write that finds the
 * database locked is tried again on a timer, until DATABASE_LOCK_TIMEOUT_MS, and then fails
 * as unavailable.
 */
export async function write<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + env().DATABASE_LOCK_TIMEOUT_MS;
  for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await run();
    } catch (error) {
      if (!isLockBusy(error) || Date.now() + pause > deadline) throw error;
      await sleep(pause);
    }
  }
}
