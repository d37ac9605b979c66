import type { BoardRecord } from "./schemas";

export interface BoardRow {
  id: string;
  name: string;
  _count: { posts: number };
}

export function serializeBoard(row: BoardRow): BoardRecord {
  return { id: row.id, name: row.name, postCount: row._count.posts };
}
