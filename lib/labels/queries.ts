import { Prisma, read } from "../db";
import type { ListLabelsQuery } from "./schemas";
import { type LabelRow, serializeLabel } from "./serialize";

/** The distinct changelog labels (one per folded name), alphabetically. */
export async function listLabels(query: ListLabelsQuery) {
  const offset = Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER);
  const [countRows, rows] = await Promise.all([
    read<{ total: number | bigint }>(Prisma.sql`SELECT count(DISTINCT l."nameKey") AS "total" FROM "ChangelogLabel" l`),
    read<LabelRow>(Prisma.sql`SELECT min(l."name") AS "name", count(*) AS "changelogCount"
      FROM "ChangelogLabel" l GROUP BY l."nameKey" ORDER BY l."nameKey" ASC LIMIT ${query.limit} OFFSET ${offset}`),
  ]);
  return { labels: rows.map(serializeLabel), total: Number(countRows[0]?.total ?? 0) };
}
