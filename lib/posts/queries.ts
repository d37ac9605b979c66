import { db, dbEngine, Prisma } from "../db";
import { searchCondition, searchTerms } from "../search";
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
         p."createdAt", p."updatedAt"`;

const JOINS = Prisma.sql`
  JOIN "Board" b ON b."id" = p."boardId"
  LEFT JOIN "PostStatus" s ON s."id" = p."statusId"
  JOIN "User" u ON u."id" = p."postedById"`;

function filters(query: ListPostsQuery): Prisma.Sql {
  const where: Prisma.Sql[] = [];
  if (query.id) where.push(Prisma.sql`t."id" IN (${Prisma.join(query.id)})`);
  if (query.boardId) where.push(Prisma.sql`t."boardId" = ${query.boardId}`);
  if (query.statusId) where.push(Prisma.sql`t."statusId" = ${query.statusId}`);
  if (query.postedById) where.push(Prisma.sql`t."postedById" = ${query.postedById}`);
  const terms = searchTerms(query.search);
  if (terms.length) where.push(searchCondition(dbEngine(), terms, "t", "PostSearch"));
  return where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;
}

export async function listPosts(query: ListPostsQuery) {
  const where = filters(query);
  const order = ORDER[query.sortBy];
  const offset = Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER);
  const [countRows, rows] = await Promise.all([
    db.$queryRaw<{ total: number | bigint }[]>`SELECT count(*) AS "total" FROM "Post" t ${where}`,
    // Page through the narrow index first, then join only the rows that are shown.
    db.$queryRaw<PostRow[]>`${SELECT_POST}
      FROM (SELECT t."seq" FROM "Post" t ${where} ORDER BY ${Prisma.raw(order.inner.replace(/"(\w+)"/g, 't."$1"'))}
            LIMIT ${query.limit} OFFSET ${offset}) page
      JOIN "Post" p ON p."seq" = page."seq"
      ${JOINS}
      ORDER BY ${Prisma.raw(order.outer)}`,
  ]);
  return { posts: rows.map(serializePost), total: Number(countRows[0]?.total ?? 0) };
}

export async function getPost(id: string) {
  const rows = await db.$queryRaw<PostRow[]>`${SELECT_POST} FROM "Post" p ${JOINS} WHERE p."id" = ${id}`;
  return rows[0] ? serializePost(rows[0]) : null;
}
