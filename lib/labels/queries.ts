import "server-only";
import { Prisma, read } from "../db";
import { rowType } from "../rows";
import { pageOffset, readCount } from "../sql";
import type { ListLabelsQuery } from "./schemas";
import { type LabelRow, serializeLabel } from "./serialize";

const labelRow = rowType<LabelRow>({ changelogCount: "int" });

/** The distinct changelog labels (one per folded name), alphabetically. */
export async function listLabels(query: ListLabelsQuery) {
  const [total, rows] = await Promise.all([
    readCount(Prisma.sql`SELECT count(DISTINCT l."nameKey") AS "total" FROM "ChangelogLabel" l`),
    read(
      Prisma.sql`SELECT min(l."name") AS "name", count(*) AS "changelogCount"
      FROM "ChangelogLabel" l GROUP BY l."nameKey" ORDER BY l."nameKey" ASC LIMIT ${query.limit} OFFSET ${pageOffset(query.page, query.limit)}`,
      labelRow,
    ),
  ]);
  return { labels: rows.map(serializeLabel), total };
}
