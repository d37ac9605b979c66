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
    const client = new SqliteClient({ adapter: adapter as never });
    // WAL lets readers go on while one writer commits; NORMAL is durable with WAL and
    // spares an fsync per commit.
    void client.$queryRawUnsafe("PRAGMA journal_mode = WAL").then(() =>
      client.$queryRawUnsafe("PRAGMA synchronous = NORMAL"),
    );
    return client;
  }
  return new PostgresClient({ adapter: adapter as never }) as unknown as Db;
}

export const db: Db = globalForDb.feedbackDb ?? createClient();
globalForDb.feedbackDb = db;

export const dbEngine = () => engineOf(env().DATABASE_URL);
