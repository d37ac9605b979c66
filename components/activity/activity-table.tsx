"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import type { AuditEventRecord } from "@/lib/audit/schemas";
import { ACTION_LABELS, changeLines, resourceHref, VIA_LABELS } from "@/lib/dashboard/audit-format";

function Resource({ event }: { event: AuditEventRecord }) {
  const href = resourceHref(event);
  const { type, id } = event.resource;
  const text = id ? `${type} ${id}` : type;
  return href ? <Link href={href}>{text}</Link> : <span>{text}</span>;
}

function Actor({ event, onActor }: { event: AuditEventRecord; onActor: (keyId: string) => void }) {
  const { keyId, name, via } = event.actor;
  return (
    <span>
      {keyId ? (
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={() => onActor(keyId)}
          title={`Show only what key ${keyId} did`}
        >
          {name}
        </button>
      ) : (
        name
      )}{" "}
      <span className="subtle">via {VIA_LABELS[via]}</span>
    </span>
  );
}

function Changes({ event }: { event: AuditEventRecord }) {
  const lines = changeLines(event.changes);
  if (!lines.length) return <span className="subtle">Nothing changed</span>;
  return (
    <ul className="change-lines">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

export function ActivityTable(props: {
  rows: AuditEventRecord[] | undefined;
  loading: boolean;
  fetching: boolean;
  onActor: (keyId: string) => void;
}) {
  const { onActor, ...table } = props;
  const columns: ColumnDef<AuditEventRecord, unknown>[] = [
    {
      id: "time",
      header: "Time",
      meta: { className: "nowrap" },
      cell: ({ row }) => <time dateTime={row.original.createdAt}>{formatDateTime(row.original.createdAt)}</time>,
    },
    { id: "action", header: "Action", cell: ({ row }) => ACTION_LABELS[row.original.action] },
    { id: "resource", header: "Resource", cell: ({ row }) => <Resource event={row.original} /> },
    { id: "actor", header: "By", cell: ({ row }) => <Actor event={row.original} onActor={onActor} /> },
    { id: "changes", header: "Changes", cell: ({ row }) => <Changes event={row.original} /> },
  ];
  return <DataTable caption="Activity" columns={columns} rowId={(event) => event.id} skeletonRows={10} {...table} />;
}
