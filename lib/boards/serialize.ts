import type { BoardRecord } from "./schemas";

export interface BoardRow {
  id: string;
  name: string;
  postCount: number;
}

export function serializeBoard(row: BoardRow): BoardRecord {
  return { id: row.id, name: row.name, postCount: row.postCount };
}
