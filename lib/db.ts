import "server-only";
import { createHash } from "node:crypto";
import pg from "pg";
import { checkingText, pendingKeyCheck, settle } from "./auth/key-check";
import { createAdapter, keepsPreparedStatements, postgresPoolConfig } from "./db-adapter";
import { isLockBusy } from "./db-errors";
import { dialect } from "./dialect";
import { env, inNextServer, sqlitePath } from "./env";
import { log } from "./log";
import { parseTimestamp } from "./pg-timestamp";
import { Prisma } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import type { RowType } from "./rows";
import { ReadPool } from "./sqlite/read-pool";
import { RememberedReads } from "./sqlite/remembered";
import { SqliteWriter } from "./sqlite/writer";

export { Prisma };

// The one Prisma client. Both engines' clients are generated from the same models, so they
// share one API; the SQLite client's type stands for both.
export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const globalForDb = globalThis as unknown as { feedbackDb?: Db };

// Errors say what went wrong without the calling code's source (Prisma's "minimal" format),
// which the command line's one-line reasons and the logs do not need.
function createClient(): Db {
  const url = env().DATABASE_URL;
  const adapter = createAdapter(url);
  if (dialect.engine === "sqlite") {
    // The file is in WAL mode (set by `feedback migrate`, it persists), so readers never wait
    // for the writer. A second writer waits for the lock in the command line; in the server it
    // fails at once and write() tries again without blocking (see there).
    return new SqliteClient({ adapter: adapter as never, errorFormat: "minimal" });
  }
  return new PostgresClient({ adapter: adapter as never, errorFormat: "minimal" }) as unknown as Db;
}

export const db: Db = globalForDb.feedbackDb ?? createClient();
globalForDb.feedbackDb = db;

const globalForReader = globalThis as unknown as {
  feedbackReadPool?: ReadPool;
  feedbackRemembered?: RememberedReads;
  feedbackPgReadPool?: pg.Pool;
  feedbackWriter?: SqliteWriter;
};

function sqliteReadPool(): ReadPool {
  if (!globalForReader.feedbackReadPool) {
    const config = env();
    globalForReader.feedbackReadPool = new ReadPool({
      file: sqlitePath(config.DATABASE_URL),
      size: config.SQLITE_READ_WORKERS,
      mmapBytes: config.SQLITE_MMAP_MB * 1024 * 1024,
      budgetMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      busyTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
      maxQueue: 1000,
    });
  }
  return globalForReader.feedbackReadPool;
}

function sqliteRemembered(): RememberedReads {
  globalForReader.feedbackRemembered ??= new RememberedReads(sqlitePath(env().DATABASE_URL));
  return globalForReader.feedbackRemembered;
}

/**
 * SQLite's readers, for the reads only they make (lib/sqlite/ranks.ts), with a statement's
 * values encoded as read() encodes them.
 */
export function sqliteReaders(): { pool: ReadPool; values: (query: Prisma.Sql) => unknown[] } {
  if (dialect.engine !== "sqlite") throw new Error("SQLite's readers serve SQLite only");
  return { pool: sqliteReadPool(), values: (query) => query.values.map(dialect.encode) };
}

// pg's default parsers read a timestamp without time zone in the process's zone; the columns
// hold UTC (as Prisma writes them): lib/pg-timestamp.ts.
const TIMESTAMP = 1114;
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP && format !== "binary" ? parseTimestamp : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * PostgreSQL reads skip Prisma's client: through it a query costs about 0.5 ms of this
 * process's CPU before the server sees it, through pg about 0.1 ms (measured on one changelog by
 * id). Its own pool, with the same settings. transact() takes its connections from it too;
 * every other write stays with Prisma.
 */
function postgresPool(): pg.Pool {
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
 * Statement texts that PostgreSQL keeps prepared, at most, per copy of this module (see
 * preparedName): transact()'s, which differ only in the length of their lists, and lookups
 * (read()'s option), so a few dozen texts cover them.
 */
const PREPARED_LIMIT = 200;
const preparedNames = new Map<string, string>();
let preparing: boolean | undefined;

/**
 * The name a statement is prepared under on each connection of the pool, so PostgreSQL parses
 * and plans it once per connection instead of on every execution (after five executions it
 * keeps a generic plan when that plan is no worse). Planning had cost each comment PUT about
 * 0.2 ms of the database's CPU, a quarter of its share. A name, once given, always means the
 * same text, in every copy of this module (pg refuses a name reused for another on a
 * connection). Past the limit, and behind a pooler that cannot keep prepared statements,
 * statements go unnamed.
 */
function preparedName(text: string): string | undefined {
  preparing ??= keepsPreparedStatements(env().DATABASE_URL);
  if (!preparing) return undefined;
  let name = preparedNames.get(text);
  if (!name && preparedNames.size < PREPARED_LIMIT) {
    // Named by the text itself: Next.js may load this module more than once (a route's bundle,
    // a page's), and every copy shares the one pool, so a counter per copy would give two
    // texts one name.
    name = `feedback_${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;
    preparedNames.set(text, name);
  }
  return name;
}

export interface ReadOptions {
  /**
   * A read whose best plan is the same whatever its values (a row by its key, a search's words
   * in the table of words): on PostgreSQL it is kept prepared (see preparedName). Not for
   * searches and lists, whose plan depends on the term or the page: a plan kept for one value
   * would serve all of them.
   */
  lookup?: boolean;
  /**
   * A read that every request makes with the same values (the caller's API key): on SQLite its
   * rows are reused while the database is unchanged (lib/sqlite/remembered.ts). PostgreSQL has
   * no sign of a change that costs less than the read itself.
   */
  remember?: boolean;
}

/**
 * Runs a read (a SELECT written with Prisma.sql) and returns its rows as `type` describes them:
 * times as Date, booleans as boolean, numbers as number, whichever engine ran it. On SQLite it
 * runs on a worker thread with its own read-only connection and kept statements
 * (lib/sqlite/read-pool.ts): the event loop never waits for SQLite, and it skips the per-query
 * cost of Prisma's client. On PostgreSQL it runs on pg's pool (postgresPool above).
 */
export async function read<T>(query: Prisma.Sql, type: RowType<T>, options: ReadOptions = {}): Promise<T[]> {
  const values = query.values.map(dialect.encode);
  // SQLite's readers decode the rows they read (lib/sqlite/columns.mjs).
  if (dialect.engine === "sqlite") {
    const run = async () => (await sqliteReadPool().run(query.sql, values, { kinds: type.kinds })) as T[];
    return options.remember ? sqliteRemembered().read(query.sql, values, run) : run();
  }
  // Until one of a read request's reads has seen its caller's key, each says how the key stands (lib/auth/key-check.ts).
  const check = pendingKeyCheck();
  const text = check ? checkingText(query.text, values.length) : query.text;
  if (check) values.push(check.keyId);
  const { rows } = await postgresPool().query({ name: options.lookup ? preparedName(text) : undefined, text, values });
  if (check) settle(check, rows);
  return decode(rows, type);
}

/** Rows as the driver returned them, decoded column by column, only where this engine differs. */
export function decode<T>(rows: unknown[], type: RowType<T>): T[] {
  for (const [column, kind] of type.kinds) {
    const decodeColumn = dialect.decode[kind];
    if (decodeColumn) for (const row of rows as Record<string, unknown>[]) row[column] = decodeColumn(row[column]);
  }
  return rows as T[];
}

/**
 * The statements of a transaction, written as Prisma.sql templates: Prisma's transaction
 * client has them, and so has transact()'s. $queryRaw returns rows as the driver gives them
 * (see decode()); code written against this runs in either.
 */
export interface Statements {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

const statementOf = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) =>
  query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);

function sqliteWriter(): SqliteWriter {
  if (!globalForReader.feedbackWriter) {
    const config = env();
    // The server never sleeps on a lock (see write()); the command line may.
    globalForReader.feedbackWriter = new SqliteWriter(sqlitePath(config.DATABASE_URL), {
      timeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
      blocking: !inNextServer(),
    });
  }
  return globalForReader.feedbackWriter;
}

export interface TransactOptions {
  /**
   * false: the commit need not wait for the disk (PostgreSQL's synchronous_commit off), for a
   * transaction whose loss in a crash of the database server costs no more than doing its work
   * again: the webhook dispatcher's leases and records, where the loss means a resend, which
   * at-least-once delivery allows. A crash of this process loses nothing either way. On SQLite
   * it changes nothing: in WAL mode better-sqlite3 commits without waiting for the disk
   * (synchronous NORMAL) in any case.
   */
  durable?: boolean;
}

/**
 * A transaction on the driver, past Prisma's client, for the hottest write (the comment PUT):
 * on SQLite the process's own writing connection (lib/sqlite/writer.ts), on PostgreSQL a
 * connection of read()'s pool, with the same timeouts as the client's. Through the client each
 * statement costs about 0.2 ms of CPU; here a few microseconds on SQLite and about 0.05 ms on
 * PostgreSQL. Wrap it in write() as any other write.
 */
export async function transact<T>(work: (tx: Statements) => Promise<T>, options: TransactOptions = {}): Promise<T> {
  if (dialect.engine === "sqlite") {
    return sqliteWriter().transaction((run) => {
      const execute = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
        const statement = statementOf(query, values);
        return run(statement.sql, statement.values.map(dialect.encode));
      };
      return work({
        $queryRaw: async <R>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => execute(query, values) as R,
        $executeRaw: async (query, ...values) => {
          const result = execute(query, values);
          return typeof result === "number" ? result : result.length;
        },
      });
    });
  }
  const client = await postgresPool().connect();
  const execute = async (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const statement = statementOf(query, values);
    return client.query({ name: preparedName(statement.text), text: statement.text, values: statement.values.map(dialect.encode) });
  };
  try {
    // One round trip either way: a query without parameters may hold two statements.
    await client.query(options.durable === false ? "BEGIN; SET LOCAL synchronous_commit TO OFF" : "BEGIN");
    const value = await work({
      $queryRaw: async <R>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await execute(query, values)).rows as R,
      $executeRaw: async (query, ...values) => (await execute(query, values)).rowCount ?? 0,
    });
    await client.query("COMMIT");
    client.release();
    return value;
  } catch (error) {
    // A connection whose ROLLBACK fails is broken: the pool drops it instead of reusing it.
    const rollback = await client.query("ROLLBACK").then(
      () => undefined,
      (failure: Error) => failure,
    );
    client.release(rollback);
    throw error;
  }
}

/**
 * Writes that need nothing back from each other, as one statement where a WITH may write
 * (PostgreSQL: each is a member of one WITH, so a transaction holding a row's lock spends one
 * round trip on them instead of one each), else one after another. PostgreSQL runs the
 * members of a WITH on one snapshot: none may depend on another's rows, except as a foreign key,
 * which is checked once the whole statement has run.
 */
export async function writeAll(tx: Statements, writes: Prisma.Sql[]): Promise<void> {
  if (dialect.writesInWith && writes.length > 1) {
    const members = writes.map((statement, i) => Prisma.sql`${Prisma.raw(`"write${i}"`)} AS (${statement})`);
    await tx.$executeRaw`WITH ${Prisma.join(members, ", ")} SELECT 1`;
    return;
  }
  for (const statement of writes) await tx.$executeRaw(statement);
}

export async function closeConnections(): Promise<void> {
  globalForReader.feedbackWriter?.close();
  globalForReader.feedbackWriter = undefined;
  await globalForReader.feedbackReadPool?.close();
  globalForReader.feedbackReadPool = undefined;
  globalForReader.feedbackRemembered?.close();
  globalForReader.feedbackRemembered = undefined;
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
