import { createAdapter } from "./db-adapter";
import { engineOf, env } from "./env";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";

export { Prisma } from "./generated/sqlite/client";

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
