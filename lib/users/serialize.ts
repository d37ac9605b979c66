import type { UserRecord } from "./schemas";

export interface UserRow {
  id: string;
  name: string;
}

export function serializeUser(row: UserRow): UserRecord {
  return { id: row.id, name: row.name };
}
