import type { ChangelogRecord, ChangelogStatus } from "./schemas";

export interface ChangelogRow {
  id: string;
  title: string;
  content: string;
  status: string;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Its labels' names, in any order (Dialect.listOf). */
  labels: string[];
}

export function sortLabels(labels: string[]): string[] {
  return [...labels].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }) || (a < b ? -1 : a > b ? 1 : 0));
}

export function serializeChangelog(row: ChangelogRow): ChangelogRecord {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    status: row.status as ChangelogStatus,
    labels: sortLabels(row.labels),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
