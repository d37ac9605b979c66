import "server-only";
import { Prisma, read } from "../db";
import { dialect } from "../dialect";
import { rowType } from "../rows";
import { searchTerms } from "../search";
import { pageOffset, readCount, where } from "../sql";
import type { ListUsersQuery } from "./schemas";
import { serializeUser, type UserRow } from "./serialize";

const userRow = rowType<UserRow>({});

// Users have no trigram index (there are few of them next to posts), so each folded term is a
// plain substring test on searchText.
function filters(query: ListUsersQuery): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (query.id) conditions.push(Prisma.sql`u."id" IN (${Prisma.join(query.id)})`);
  const terms = searchTerms(query.search);
  if (terms.length) conditions.push(dialect.contains("u", terms));
  return where(conditions);
}

/** Users by name, then id. */
export async function listUsers(query: ListUsersQuery) {
  const filter = filters(query);
  const [total, rows] = await Promise.all([
    readCount(Prisma.sql`SELECT count(*) AS "total" FROM "User" u ${filter}`),
    read(
      Prisma.sql`SELECT u."id", u."name" FROM "User" u ${filter}
      ORDER BY u."name" ASC, u."id" ASC LIMIT ${query.limit} OFFSET ${pageOffset(query.page, query.limit)}`,
      userRow,
    ),
  ]);
  return { users: rows.map(serializeUser), total };
}
