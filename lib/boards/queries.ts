import { Prisma, read } from "../db";
import type { ListBoardsQuery } from "./schemas";
import { type BoardRow, serializeBoard } from "./serialize";

/**
 * Boards by name, then id, so the dashboard's filter lists them predictably. Raw SQL through
 * read(): counting a board's posts walks its part of the boardId index, a million entries on
 * a large board, which must not run on the event loop (SQLite).
 */
export async function listBoards(query: ListBoardsQuery) {
  const offset = Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER);
  const [countRows, rows] = await Promise.all([
    read<{ total: number | bigint }>(Prisma.sql`SELECT count(*) AS "total" FROM "Board"`),
    read<BoardRow>(Prisma.sql`
      SELECT b."id", b."name", (SELECT count(*) FROM "Post" p WHERE p."boardId" = b."id") AS "postCount"
      FROM "Board" b ORDER BY b."name" ASC, b."id" ASC LIMIT ${query.limit} OFFSET ${offset}`),
  ]);
  return { boards: rows.map(serializeBoard), total: Number(countRows[0]?.total ?? 0) };
}
