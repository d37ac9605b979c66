import type { LabelRecord } from "./schemas";

export interface LabelRow {
  name: string;
  changelogCount: number;
}

export function serializeLabel(row: LabelRow): LabelRecord {
  return { name: row.name, changelogCount: row.changelogCount };
}
