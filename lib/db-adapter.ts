import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { type Engine, engineOf, env, inNextServer, sqlitePath } from "./env";

// Driver adapters for both engines, shared by the app, the command line and Prisma's CLI.

export function resolveEngine(): Engine {
  const forced = process.env.PRISMA_ENGINE;
  if (forced === "sqlite" || forced === "postgres") return forced;
  return engineOf(env().DATABASE_URL);
}

export function createAdapter(url = env().DATABASE_URL) {
  const config = env();
  if (engineOf(url) === "sqlite") {
    const file = sqlitePath(url);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // better-sqlite3 waits for a lock by sleeping the thread: fine for the command line, never
    // for the server's event loop, where db.ts's write() waits on a timer instead.
    return new PrismaBetterSQLite3({ url: file, timeout: inNextServer() ? 0 : config.DATABASE_LOCK_TIMEOUT_MS });
  }
  return new PrismaPg(postgresPoolConfig(url));
}

/** The pool settings of every PostgreSQL connection the app opens (Prisma's and read()'s). */
export function postgresPoolConfig(url: string) {
  const config = env();
  return {
    connectionString: url,
    max: config.DATABASE_POOL_SIZE,
    connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS,
    statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lock_timeout: config.DATABASE_LOCK_TIMEOUT_MS,
    // The client's own clock: a server that stops answering (a network partition) cannot hold
    // a request past the statement timeout and a margin for the round trip.
    query_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS + 2_000,
    idleTimeoutMillis: 30_000,
    // The app's queries take milliseconds, and JIT compiling one costs as much or more: a
    // count through the word index, whose expression's declared cost puts the plan past
    // jit_above_cost, spent 60 ms of an 89 ms run compiling. A pooler that refuses startup
    // options (`pgbouncer=true`) leaves it to the role's or the database's setting.
    ...(keepsPreparedStatements(url) ? { options: "-c jit=off" } : {}),
  };
}

/**
 * Whether statements may stay prepared on the connections of `url`. Not behind a pooler in
 * transaction mode that cannot keep them (PgBouncer before 1.21, or without
 * max_prepared_statements; Supavisor): such a URL says `pgbouncer=true`, as for Prisma.
 */
export function keepsPreparedStatements(url: string): boolean {
  try {
    return new URL(url).searchParams.get("pgbouncer") !== "true";
  } catch {
    return true;
  }
}

/**
 * Prisma's CLI. A migration may build an index over every row (a minute or more at a million
 * posts), so its statements have no time limit; waiting for a lock still has one.
 */
export function createMigrationAdapter() {
  const url = env().DATABASE_URL;
  if (engineOf(url) === "sqlite") return createAdapter(url);
  return new PrismaPg({ ...postgresPoolConfig(url), statement_timeout: 0, query_timeout: undefined });
}
