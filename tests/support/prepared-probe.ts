// Run as a script by tests/api/prepared.test.ts, with DATABASE_URL set: a key lookup and a
// transaction through lib/db.ts, then what the transaction's connection keeps prepared, how
// transactions commit, whether queries are compiled just in time, and what the reads'
// connection keeps prepared after two searches (on PostgreSQL). Prints one line of JSON.
import { db, Prisma, read, transact } from "../../lib/db";
import { rowType } from "../../lib/rows";
import { dialect } from "../../lib/dialect";
import { listPosts } from "../../lib/posts/queries";
import { listPostsQuery } from "../../lib/posts/schemas";

const keyRow = rowType<{ id: string }>({});

async function main() {
  const keys = await read(Prisma.sql`SELECT "id" FROM "ApiKey" WHERE "hash" = ${"no such hash"}`, keyRow, { lookup: true });
  const prepared = await transact(async (tx) => {
    const [row] = await tx.$queryRaw<{ n: number | bigint }[]>`SELECT count(*) AS "n" FROM "ApiKey"`;
    const names =
      dialect.engine === "postgres"
        ? await tx.$queryRaw<{ name: string; statement: string }[]>`SELECT "name", "statement" FROM pg_prepared_statements ORDER BY "name"`
        : [];
    return { count: Number(row?.n), names };
  });
  // What a transaction that need not wait for the disk commits with, and what others do.
  const commit = async (durable: boolean) =>
    dialect.engine === "postgres"
      ? await transact(async (tx) => (await tx.$queryRaw<{ synchronous_commit: string }[]>`SHOW synchronous_commit`)[0]?.synchronous_commit, { durable })
      : null;
  // Whether the reads' connections and Prisma's compile queries just in time (PostgreSQL).
  const jit =
    dialect.engine === "postgres"
      ? {
          read: (await read(Prisma.sql`SHOW jit`, rowType<{ jit: string }>({})))[0]?.jit,
          prisma: (await db.$queryRaw<{ jit: string }[]>`SHOW jit`)[0]?.jit,
        }
      : null;
  // What the reads' connection keeps prepared after a search of four terms (PREPARED_TERMS, the
  // most kept) and one of five: the words of the first are looked up by a kept statement, those
  // of the second are not.
  // The test gives the pool one connection (DATABASE_POOL_SIZE), so every read runs on it.
  const searched = async (search: string) => (await listPosts(listPostsQuery.parse({ search }))).total;
  const searches = [await searched("okta reports export slack"), await searched("one two three four five")];
  const readNames =
    dialect.engine === "postgres"
      ? await read(Prisma.sql`SELECT "name", "statement" FROM pg_prepared_statements ORDER BY "name"`, rowType<{ name: string; statement: string }>({}))
      : [];
  console.log(
    JSON.stringify({ keys: keys.length, ...prepared, durableCommit: await commit(true), relaxedCommit: await commit(false), jit, searches, readNames }),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
