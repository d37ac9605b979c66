import { Prisma, read } from "../db";
import { type Dialect, dialect } from "../dialect";
import { rowType } from "../rows";
import { searchTerms } from "../search";
import { pageOffset, readCount, where } from "../sql";
import { dataVersionColumn, exactTotal, type VersionedRow } from "../totals";
import type { ListPostsQuery } from "./schemas";
import { pageByWalking } from "./search-plan";
import { type PostRow, serializePost } from "./serialize";

const ORDER = {
  latest: { inner: `"createdAt" DESC, "id" DESC`, outer: `p."createdAt" DESC, p."id" DESC` },
  top: { inner: `"upvotes" DESC, "createdAt" DESC, "id" DESC`, outer: `p."upvotes" DESC, p."createdAt" DESC, p."id" DESC` },
} as const;

type SortBy = ListPostsQuery["sortBy"];

const SELECT_POST = Prisma.sql`
  SELECT p."id", p."title", p."content", p."boardId", b."name" AS "boardName",
         p."statusId", s."name" AS "statusName", s."color" AS "statusColor",
         p."postedById", u."name" AS "authorName", p."upvotes", p."commentCount",
         p."createdAt", p."updatedAt", ${dataVersionColumn("Post")}`;

const JOINS = Prisma.sql`
  JOIN "Board" b ON b."id" = p."boardId"
  LEFT JOIN "PostStatus" s ON s."id" = p."statusId"
  JOIN "User" u ON u."id" = p."postedById"`;

const postRow = rowType<PostRow & VersionedRow>({
  upvotes: "int",
  commentCount: "int",
  createdAt: "time",
  updatedAt: "time",
  dataVersion: "int",
});

export interface PostFilter {
  /** The conditions other than search, on alias t. */
  plain: Prisma.Sql[];
  terms: string[];
  /** The WHERE clause of both, on alias t. */
  where: Prisma.Sql;
}

export function postFilter(query: ListPostsQuery, d: Dialect = dialect): PostFilter {
  const plain: Prisma.Sql[] = [];
  if (query.id) plain.push(Prisma.sql`t."id" IN (${Prisma.join(query.id)})`);
  if (query.boardId) plain.push(Prisma.sql`t."boardId" = ${query.boardId}`);
  if (query.statusId) plain.push(Prisma.sql`t."statusId" = ${query.statusId}`);
  if (query.postedById) plain.push(Prisma.sql`t."postedById" = ${query.postedById}`);
  const terms = searchTerms(query.search);
  return { plain, terms, where: where(terms.length ? [...plain, d.search("Post", "t", terms)] : plain) };
}

/** The sort order's ORDER BY list on a given alias. */
export const orderOn = (sortBy: SortBy) => (alias: string) => Prisma.raw(ORDER[sortBy].inner.replace(/"(\w+)"/g, `${alias}."$1"`));

/** The count of a filter; a search on its own may be counted by the trigram index alone. */
export function countSql(filter: PostFilter, d: Dialect = dialect): Prisma.Sql {
  const fromIndex = filter.plain.length ? null : d.countMatches("Post", filter.terms);
  return fromIndex ?? Prisma.sql`SELECT count(*) AS "total" FROM "Post" t ${filter.where}`;
}

/**
 * Page through the narrow index first, then join only the rows that are shown. The page is
 * identified by "id", which every sort index holds, so both engines read it from the index
 * alone (PostgreSQL's indexes do not hold "seq", SQLite's hold it as the rowid).
 */
export function pageSql(filter: PostFilter, sortBy: SortBy, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`SELECT t."id" FROM "Post" t ${filter.where} ORDER BY ${orderOn(sortBy)("t")} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The shown rows, in order, joined to everything a post record needs. CROSS JOIN makes SQLite
 * start from the page: with LIMIT as a parameter it cannot see that the page is small, and may
 * otherwise walk all of "Post" and probe the page for each row. PostgreSQL plans it as a join.
 */
export function rowsSql(page: Prisma.Sql, sortBy: SortBy): Prisma.Sql {
  return Prisma.sql`${SELECT_POST}
    FROM (${page}) page
    CROSS JOIN "Post" p
    ${JOINS}
    WHERE p."id" = page."id"
    ORDER BY ${Prisma.raw(ORDER[sortBy].outer)}`;
}

export async function listPosts(query: ListPostsQuery) {
  const filter = postFilter(query);
  const offset = pageOffset(query.page, query.limit);
  const rowsOf = (page: Prisma.Sql) => read(rowsSql(page, query.sortBy), postRow);
  // The page first: its rows carry the table's version, so a cached total costs no query.
  const walk = { filter, order: orderOn(query.sortBy), limit: query.limit, offset };
  const rows =
    (await pageByWalking(walk, dialect, rowsOf)) ?? (await rowsOf(pageSql(filter, query.sortBy, query.limit, offset)));
  const total = await exactTotal("Post", filter.where, () => readCount(countSql(filter)), rows[0]?.dataVersion);
  return { posts: rows.map(serializePost), total };
}

export async function getPost(id: string) {
  const rows = await read(Prisma.sql`${SELECT_POST} FROM "Post" p ${JOINS} WHERE p."id" = ${id}`, postRow);
  return rows[0] ? serializePost(rows[0]) : null;
}
