// Run as a script by tests/api/prepared.test.ts, with DATABASE_URL set: a key lookup and a
// transaction through lib/db.ts, then what the transaction's connection keeps prepared (on
// PostgreSQL). Prints one line of JSON.
import { Prisma, read, transact } from "../../lib/db";
import { rowType } from "../../lib/rows";
import { dialect } from "../../lib/dialect";

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
  console.log(JSON.stringify({ keys: keys.length, ...prepared }));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
