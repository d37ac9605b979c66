import { dbEngine, Prisma, read } from "../db";
import { ftsMatch, indexedTerms, searchCondition, searchTerms, substringCondition } from "../search";
import { dataVersionColumn, exactTotal, totalHint, type VersionedRow } from "../totals";
import type { ListPostsQuery } from "./schemas";
import { type PostRow, serializePost } from "./serialize";

const ORDER = {
  latest: { inner: `"createdAt" DESC, "id" DESC`, outer: `p."createdAt" DESC, p."id" DESC` },
  top: { inner: `"upvotes" DESC, "createdAt" DESC, "id" DESC`, outer: `p."upvotes" DESC, p."createdAt" DESC, p."id" DESC` },
} as const;

const SELECT_POST = Prisma.sql`
  SELECT p."id", p."title", p."content", p."boardId", b."name" AS "boardName",
         p."statusId", s."name" AS "statusName", s."color" AS "statusColor",
         p."postedById", u."name" AS "authorName", p."upvotes", p."commentCount",
         p."createdAt", p."updatedAt", ${dataVersionColumn("Post")}`;

const JOINS = Prisma.sql`
  JOIN "Board" b ON b."id" = p."boardId"
  LEFT JOIN "PostStatus" s ON s."id" = p."statusId"
  JOIN "User" u ON u."id" = p."postedById"`;

/** The conditions other than search, on alias t. */
function plainFilters(query: ListPostsQuery): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (query.id) where.push(Prisma.sql`t."id" IN (${Prisma.join(query.id)})`);
  if (query.boardId) where.push(Prisma.sql`t."boardId" = ${query.boardId}`);
  if (query.statusId) where.push(Prisma.sql`t."statusId" = ${query.statusId}`);
  if (query.postedById) where.push(Prisma.sql`t."postedById" = ${query.postedById}`);
  return where;
}

const whereOf = (conditions: Prisma.Sql[]) =>
  conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;

const orderBy = (sortBy: ListPostsQuery["sortBy"], alias: string) =>
  Prisma.raw(ORDER[sortBy].inner.replace(/"(\w+)"/g, `${alias}."$1"`));

/** SQLite: a search on its own, of terms the trigram index answers exactly, is counted there. */
function countFromIndex(plain: Prisma.Sql[], terms: string[]): boolean {
  return dbEngine() === "sqlite" && plain.length === 0 && terms.length > 0 && indexedTerms(terms).length === terms.length;
}

async function countPosts(plain: Prisma.Sql[], terms: string[], where: Prisma.Sql): Promise<number> {
  const rows = countFromIndex(plain, terms)
    ? await read<{ total: number | bigint }>(Prisma.sql`SELECT count(*) AS "total" FROM "PostSearch" WHERE "PostSearch" MATCH ${ftsMatch(terms)}`)
    : await read<{ total: number | bigint }>(Prisma.sql`SELECT count(*) AS "total" FROM "Post" t ${where}`);
  return Number(rows[0]?.total ?? 0);
}

/**
 * The shown rows, in order, joined to everything a post record needs. CROSS JOIN makes SQLite
 * start from the page: with LIMIT as a parameter it cannot see that the page is small, and may
 * otherwise walk all of "Post" and probe the page for each row. PostgreSQL plans it as a join.
 */
function rowsOf(page: Prisma.Sql, sortBy: ListPostsQuery["sortBy"]) {
  return read<PostRow & VersionedRow>(Prisma.sql`${SELECT_POST}
    FROM (${page}) page
    CROSS JOIN "Post" p
    ${JOINS}
    WHERE p."id" = page."id"
    ORDER BY ${Prisma.raw(ORDER[sortBy].outer)}`);
}

/**
 * SQLite, searching: a common term is found fastest by walking the sort order's index and
 * testing each row, a rare one by asking the trigram index first. Walk a bounded prefix of the
 * order first: if it holds the whole page, that page is exact (every match before it lies in
 * the prefix). Otherwise the term is rare enough for the index.
 */
async function searchPageByWalking(query: ListPostsQuery, plain: Prisma.Sql[], terms: string[], offset: number) {
  if ((offset + query.limit) * WALK_FACTOR > WALK_LIMIT * 10) return null;
  const cap = Math.min(WALK_LIMIT, (offset + query.limit) * WALK_FACTOR);
  const rows = await rowsOf(
    Prisma.sql`SELECT w."id" FROM (
        SELECT t."id", t."searchText", t."upvotes", t."createdAt" FROM "Post" t ${whereOf(plain)}
        ORDER BY ${orderBy(query.sortBy, "t")} LIMIT ${cap}) w
      WHERE ${substringCondition(terms, "w")}
      ORDER BY ${orderBy(query.sortBy, "w")} LIMIT ${query.limit} OFFSET ${offset}`,
    query.sortBy,
  );
  return rows.length === query.limit ? rows : null;
}

/** How far the walk may go: a term in one post of WALK_FACTOR still fills a page from it. */
const WALK_FACTOR = 50;
const WALK_LIMIT = 5000;
/** Fewer matches than this are sorted straight from the trigram index. */
const RARE = 2000;

async function pagePosts(query: ListPostsQuery, plain: Prisma.Sql[], terms: string[], where: Prisma.Sql, offset: number) {
  // A term known to be rare (from the last count of this same search) goes to the index at once.
  const hint = totalHint("Post", where);
  if (terms.length && dbEngine() === "sqlite" && (hint === undefined || hint > RARE)) {
    const walked = await searchPageByWalking(query, plain, terms, offset);
    if (walked) return walked;
  }
  // Page through the narrow index first, then join only the rows that are shown. The page is
  // identified by "id", which every sort index holds, so both engines read it from the index
  // alone (PostgreSQL's indexes do not hold "seq", SQLite's hold it as the rowid).
  return rowsOf(
    Prisma.sql`SELECT t."id" FROM "Post" t ${where} ORDER BY ${orderBy(query.sortBy, "t")} LIMIT ${query.limit} OFFSET ${offset}`,
    query.sortBy,
  );
}

export async function listPosts(query: ListPostsQuery) {
  const plain = plainFilters(query);
  const terms = searchTerms(query.search);
  const where = whereOf(terms.length ? [...plain, searchCondition(dbEngine(), terms, "t", "PostSearch")] : plain);
  const offset = Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER);
  // The page first: its rows carry the table's version, so a cached total costs no query.
  const rows = await pagePosts(query, plain, terms, where, offset);
  const total = await exactTotal("Post", where, () => countPosts(plain, terms, where), rows[0]?.dataVersion);
  return { posts: rows.map(serializePost), total };
}

export async function getPost(id: string) {
  const rows = await read<PostRow>(Prisma.sql`${SELECT_POST} FROM "Post" p ${JOINS} WHERE p."id" = ${id}`);
  return rows[0] ? serializePost(rows[0]) : null;
}
