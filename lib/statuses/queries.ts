import "server-only";
import { Prisma, read } from "../db";
import { rowType } from "../rows";
import { pageOffset, readCount } from "../sql";
import type { ListStatusesQuery } from "./schemas";
import { type StatusRow, serializeStatus } from "./serialize";

const statusRow = rowType<StatusRow>({ position: "int" });

/** Statuses in workflow order (the order they were imported in), ties by name and id. */
export async function listStatuses(query: ListStatusesQuery) {
  const [total, rows] = await Promise.all([
    readCount(Prisma.sql`SELECT count(*) AS "total" FROM "PostStatus"`),
    read(
      Prisma.sql`SELECT s."id", s."name", s."color", s."position" FROM "PostStatus" s
      ORDER BY s."position" ASC, s."name" ASC, s."id" ASC LIMIT ${query.limit} OFFSET ${pageOffset(query.page, query.limit)}`,
      statusRow,
    ),
  ]);
  return { statuses: rows.map(serializeStatus), total };
}
