import { db, dbEngine, Prisma } from "../db";
import { searchTerms } from "../search";
import type { ListUsersQuery } from "./schemas";
import { serializeUser, type UserRow } from "./serialize";

// Users have no trigram index (there are few of them next to posts), so each folded term is a
// plain substring test on searchText; instr/strpos never treat %, _ or \ as wildcards.
function filters(query: ListUsersQuery): Prisma.Sql {
  const terms = searchTerms(query.search);
  if (!terms.length) return Prisma.empty;
  const test = dbEngine() === "postgres" ? "strpos" : "instr";
  const conditions = terms.map((t) => Prisma.sql`${Prisma.raw(test)}(u."searchText", ${t}) > 0`);
  return Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}`;
}

/** Users by name, then id. */
export async function listUsers(query: ListUsersQuery) {
  const where = filters(query);
  const offset = Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER);
  const [countRows, rows] = await Promise.all([
    db.$queryRaw<{ total: number | bigint }[]>`SELECT count(*) AS "total" FROM "User" u ${where}`,
    db.$queryRaw<UserRow[]>`SELECT u."id", u."name" FROM "User" u ${where}
      ORDER BY u."name" ASC, u."id" ASC LIMIT ${query.limit} OFFSET ${offset}`,
  ]);
  return { users: rows.map(serializeUser), total: Number(countRows[0]?.total ?? 0) };
}
