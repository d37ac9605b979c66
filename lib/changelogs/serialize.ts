import { iso, isoOrNull } from "../dates";
import type { ChangelogRecord, ChangelogStatus } from "./schemas";

export interface ChangelogRow {
  id: string;
  title: string;
  content: string;
  status: string;
  publishedAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export function sortLabels(labels: string[]): string[] {
  return [...labels].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }) || (a < b ? -1 : a > b ? 1 : 0));
}

export function serializeChangelog(row: ChangelogRow, labels: string[]): ChangelogRecord {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    status: row.status as ChangelogStatus,
    labels: sortLabels(labels),
    publishedAt: isoOrNull(row.publishedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
