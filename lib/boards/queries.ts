import "server-only";
import { Prisma, read } from "../db";
import { rowType } from "../rows";
import { pageOffset, readCount } from "../sql";
import type { ListBoardsQuery } from "./schemas";
import { type BoardRow, serializeBoard } from "./serialize";

const boardRow = rowType<BoardRow>({ postCount: "int" });

/**
 * Boards by name, then id, so the dashboard's filter lists them predictably. Raw SQL through
 * read(): counting a board's posts walks its part of the boardId index, a million entries on
 * a large board, which must not run on the event loop (SQLite).
 */
export async function listBoards(query: ListBoardsQuery) {
  const [total, rows] = await Promise.all([
    readCount(Prisma.sql`SELECT count(*) AS "total" FROM "Board"`),
    read(
      Prisma.sql`
      SELECT b."id", b."name", (SELECT count(*) FROM "Post" p WHERE p."boardId" = b."id") AS "postCount"
      FROM "Board" b ORDER BY b."name" ASC, b."id" ASC LIMIT ${query.limit} OFFSET ${pageOffset(query.page, query.limit)}`,
      boardRow,
    ),
  ]);
  return { boards: rows.map(serializeBoard), total };
}
