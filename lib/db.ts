import Database from "better-sqlite3";
import { createAdapter } from "./db-adapter";
import { engineOf, env, sqlitePath } from "./env";
import { Prisma } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";

export { Prisma };

// The one Prisma client. Both engines' clients are generated from the same models, so they
// share one API; the SQLite client's type stands for both.
export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const globalForDb = globalThis as unknown as { feedbackDb?: Db };

function createClient(): Db {
  const url = env().DATABASE_URL;
  const adapter = createAdapter(url);
  if (engineOf(url) === "sqlite") {
    // The file is in WAL mode (set by `feedback migrate`, it persists), so readers never wait
    // for the writer; the adapter's busy timeout makes a second writer wait instead of failing.
    return new SqliteClient({ adapter: adapter as never });
  }
  return new PostgresClient({ adapter: adapter as never }) as unknown as Db;
}

export const db: Db = globalForDb.feedbackDb ?? createClient();
globalForDb.feedbackDb = db;

export const dbEngine = () => engineOf(env().DATABASE_URL);

type Value = Prisma.Sql["values"][number];

/** A value as the SQLite adapter would store it: times as ISO text with "+00:00", booleans as 0/1. */
function sqliteValue(value: Value): unknown {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

interface SqliteReader {
  connection: Database.Database;
  statements: Map<string, Database.Statement>;
}

const globalForReader = globalThis as unknown as { feedbackReader?: SqliteReader };
const MAX_STATEMENTS = 500;

function sqliteReader(): SqliteReader {
  if (!globalForReader.feedbackReader) {
    const connection = new Database(sqlitePath(env().DATABASE_URL), { fileMustExist: true, timeout: env().SQLITE_BUSY_TIMEOUT_MS });
    // This connection only ever reads; refuse anything else outright.
    connection.pragma("query_only = ON");
    globalForReader.feedbackReader = { connection, statements: new Map() };
  }
  return globalForReader.feedbackReader;
}

/**
 * Runs a read (a SELECT written with Prisma.sql) and returns its rows. On SQLite it uses a
 * second connection, read-only, with prepared statements kept: in WAL mode it reads alongside
 * Prisma's writing connection, and it skips the per-query cost of Prisma's client (about
 * 0.2 ms, most of a list request's own work). On PostgreSQL it is Prisma's $queryRaw.
 * Times come back as Date (PostgreSQL) or ISO text (SQLite); serializers accept both.
 */
export async function read<T>(query: Prisma.Sql): Promise<T[]> {
  if (dbEngine() !== "sqlite") return db.$queryRaw<T[]>(query);
  const reader = sqliteReader();
  let statement = reader.statements.get(query.sql);
  if (!statement) {
    statement = reader.connection.prepare(query.sql);
    if (reader.statements.size >= MAX_STATEMENTS) reader.statements.delete(reader.statements.keys().next().value as string);
    reader.statements.set(query.sql, statement);
  }
  return statement.all(...query.values.map(sqliteValue)) as T[];
}
