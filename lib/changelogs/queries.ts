import { dbEngine, Prisma, read } from "../db";
import { fold, searchCondition, searchTerms } from "../search";
import type { ListChangelogsQuery } from "./schemas";
import { dataVersionColumn, exactTotal, type VersionedRow } from "../totals";
import { type ChangelogRow, serializeChangelog } from "./serialize";

// Drafts first ("Draft" sorts before "Published"), each group newest first by sortAt
// (updatedAt for a Draft, publishedAt once Published), ties by id.
const ORDER = `t."status" ASC, t."sortAt" DESC, t."id" DESC`;

function filters(query: ListChangelogsQuery): Prisma.Sql {
  const where: Prisma.Sql[] = [];
  if (query.id) where.push(Prisma.sql`t."id" IN (${Prisma.join(query.id)})`);
  if (query.status) where.push(Prisma.sql`t."status" = ${query.status}`);
  if (query.labels) {
    const keys = [...new Set(query.labels.map(fold))];
    where.push(
      // A correlated EXISTS: the list walks its sort index and probes each row's labels, so a
      // page stops after a few rows instead of gathering every labelled changelog first.
      // OFFSET 0 keeps PostgreSQL from turning it into a hash semi-join over all of them (it
      // does not flatten a subquery with OFFSET); SQLite plans it this way by itself (and has
      // no OFFSET without LIMIT).
      Prisma.sql`EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = t."id" AND l."nameKey" IN (${Prisma.join(keys)})${Prisma.raw(dbEngine() === "postgres" ? " OFFSET 0" : "")})`,
    );
  }
  const terms = searchTerms(query.search);
  if (terms.length) where.push(searchCondition(dbEngine(), terms, "t", "ChangelogSearch"));
  return where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;
}

// Raw SQL rather than the query builder: on a 50,000-changelog table Prisma's findMany for the
// labels took ~5 ms where this takes a fraction of one (measured, bench/).
async function labelsOf(ids: string[]): Promise<Map<string, string[]>> {
  const byId = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byId;
  const rows = await read<{ changelogId: string; name: string }>(Prisma.sql`
    SELECT l."changelogId", l."name" FROM "ChangelogLabel" l WHERE l."changelogId" IN (${Prisma.join(ids)})`);
  for (const row of rows) byId.get(row.changelogId)?.push(row.name);
  return byId;
}

const COLUMNS = Prisma.sql`t."id", t."title", t."content", t."status", t."publishedAt", t."createdAt", t."updatedAt"`;

export async function listChangelogs(query: ListChangelogsQuery) {
  const where = filters(query);
  const offset = Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER);
  // The page first: its rows carry the table's version, so a cached total costs no query.
  const rows = await read<ChangelogRow & VersionedRow>(Prisma.sql`
    SELECT ${COLUMNS}, ${dataVersionColumn("Changelog")}
    FROM "Changelog" t ${where} ORDER BY ${Prisma.raw(ORDER)} LIMIT ${query.limit} OFFSET ${offset}`);
  const total = await exactTotal(
    "Changelog",
    where,
    async () => {
      const counted = await read<{ total: number | bigint }>(Prisma.sql`SELECT count(*) AS "total" FROM "Changelog" t ${where}`);
      return Number(counted[0]?.total ?? 0);
    },
    rows[0]?.dataVersion,
  );
  const labels = await labelsOf(rows.map((r) => r.id));
  return {
    changelogs: rows.map((row) => serializeChangelog(row, labels.get(row.id) ?? [])),
    total,
  };
}

export async function getChangelog(id: string) {
  const rows = await read<ChangelogRow>(Prisma.sql`SELECT ${COLUMNS} FROM "Changelog" t WHERE t."id" = ${id}`);
  const row = rows[0];
  if (!row) return null;
  const labels = await labelsOf([row.id]);
  return serializeChangelog(row, labels.get(row.id) ?? []);
}
