import { db } from "../db";
import type { ListBoardsQuery } from "./schemas";
import { serializeBoard } from "./serialize";

/** Boards by name, then id, so the dashboard's filter lists them predictably. */
export async function listBoards(query: ListBoardsQuery) {
  const [total, rows] = await Promise.all([
    db.board.count(),
    db.board.findMany({
      orderBy: [{ name: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.limit,
      take: query.limit,
      select: { id: true, name: true, _count: { select: { posts: true } } },
    }),
  ]);
  return { boards: rows.map(serializeBoard), total };
}
