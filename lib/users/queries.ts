import { dbEngine, Prisma, read } from "../db";
import { searchTerms } from "../search";
import type { ListUsersQuery } from "./schemas";
import { serializeUser, type UserRow } from "./serialize";

// Users have no trigram index (there are few of them next to posts), so each folded term is a
// plain substring test on searchText; instr/strpos never treat %, _ or \ as wildcards.
function filters(query: ListUsersQuery): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (query.id) conditions.push(Prisma.sql`u."id" IN (${Prisma.join(query.id)})`);
  const test = Prisma.raw(dbEngine() === "postgres" ? "strpos" : "instr");
  for (const term of searchTerms(query.search)) conditions.push(Prisma.sql`${test}(u."searchText", ${term}) > 0`);
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** Users by name, then id. */
export async function listUsers(query: ListUsersQuery) {
  const where = filters(query);
  const offset = Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER);
  const [countRows, rows] = await Promise.all([
    read<{ total: number | bigint }>(Prisma.sql`SELECT count(*) AS "total" FROM "User" u ${where}`),
    read<UserRow>(Prisma.sql`SELECT u."id", u."name" FROM "User" u ${where}
      ORDER BY u."name" ASC, u."id" ASC LIMIT ${query.limit} OFFSET ${offset}`),
  ]);
  return { users: rows.map(serializeUser), total: Number(countRows[0]?.total ?? 0) };
}
