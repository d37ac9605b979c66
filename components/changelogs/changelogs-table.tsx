"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { formatDate } from "@/components/ui/format";
import { ChangelogStatusBadge } from "@/components/ui/status-badge";
import type { ChangelogRecord } from "@/lib/changelogs/schemas";
import { LabelChips } from "./label-chips";

const columns: ColumnDef<ChangelogRecord, unknown>[] = [
  {
    id: "title",
    header: "Title",
    meta: { className: "title-cell" },
    cell: ({ row }) => <Link href={`/changelogs/${encodeURIComponent(row.original.id)}`}>{row.original.title}</Link>,
  },
  { id: "status", header: "Status", cell: ({ row }) => <ChangelogStatusBadge status={row.original.status} /> },
  { id: "labels", header: "Labels", cell: ({ row }) => <LabelChips labels={row.original.labels} /> },
  {
    id: "published",
    header: "Published",
    meta: { className: "nowrap" },
    cell: ({ row }) =>
      row.original.publishedAt ? (
        <time dateTime={row.original.publishedAt}>{formatDate(row.original.publishedAt)}</time>
      ) : (
        <span className="subtle">Not yet</span>
      ),
  },
];

export function ChangelogsTable(props: {
  rows: ChangelogRecord[] | undefined;
  loading: boolean;
  fetching: boolean;
  skeletonRows: number;
}) {
  return <DataTable caption="Changelogs" columns={columns} rowId={(changelog) => changelog.id} {...props} />;
}
