"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { formatCount, formatDate } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { PostRecord } from "@/lib/posts/schemas";

const columns: ColumnDef<PostRecord, unknown>[] = [
  {
    id: "title",
    header: "Title",
    meta: { className: "title-cell" },
    cell: ({ row }) => <Link href={`/posts/${encodeURIComponent(row.original.id)}`}>{row.original.title}</Link>,
  },
  { id: "board", header: "Board", cell: ({ row }) => row.original.board.name },
  {
    id: "status",
    header: "Status",
    cell: ({ row }) =>
      row.original.status ? (
        <StatusBadge name={row.original.status.name} color={row.original.status.color} />
      ) : (
        <span className="subtle">No status</span>
      ),
  },
  { id: "author", header: "Author", cell: ({ row }) => row.original.postedBy.name },
  { id: "upvotes", header: "Upvotes", meta: { className: "num" }, cell: ({ row }) => formatCount(row.original.upvotes) },
  { id: "comments", header: "Comments", meta: { className: "num" }, cell: ({ row }) => formatCount(row.original.commentCount) },
  {
    id: "created",
    header: "Created",
    meta: { className: "nowrap" },
    cell: ({ row }) => <time dateTime={row.original.createdAt}>{formatDate(row.original.createdAt)}</time>,
  },
];

export function PostsTable(props: { rows: PostRecord[] | undefined; loading: boolean; fetching: boolean; skeletonRows: number }) {
  return <DataTable caption="Posts" columns={columns} rowId={(post) => post.id} {...props} />;
}
