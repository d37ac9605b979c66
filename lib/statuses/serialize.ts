import type { StatusRecord } from "./schemas";

export interface StatusRow {
  id: string;
  name: string;
  color: string;
  position: number;
}

export function serializeStatus(row: StatusRow): StatusRecord {
  return { id: row.id, name: row.name, color: row.color, position: row.position };
}
