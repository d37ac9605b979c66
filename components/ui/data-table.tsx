"use client";

import { type ColumnDef, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { Skeleton } from "./states";

// Column meta: a class for the cells, and the label a phone shows beside each value.
declare module "@tanstack/react-table" {
  interface ColumnMeta<TData, TValue> {
    className?: string;
  }
}

interface Props<T> {
  caption: string;
  columns: ColumnDef<T, unknown>[];
  rows: T[] | undefined;
  loading: boolean;
  fetching: boolean;
  skeletonRows?: number;
  rowId: (row: T) => string;
}

/** A read-only grid over one page of an API list; paging and filtering happen on the server. */
export function DataTable<T>({ caption, columns, rows, loading, fetching, skeletonRows = 8, rowId }: Props<T>) {
  const table = useReactTable({
    data: rows ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowId,
    manualPagination: true,
    manualFiltering: true,
    manualSorting: true,
  });
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  return (
    <div className="table-card">
      <table className="table" aria-busy={loading || fetching}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header.id} scope="col" className={header.column.columnDef.meta?.className}>
                {flexRender(header.column.columnDef.header, header.getContext())}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: skeletonRows }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                <tr key={i}>
                  {headers.map((header, j) => (
                    <td key={header.id} data-label={String(header.column.columnDef.header ?? "")}>
                      <Skeleton width={j === 0 ? "80%" : "60%"} />
                    </td>
                  ))}
                </tr>
              ))
            : table.getRowModel().rows.map((row) => (
                <tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={cell.column.columnDef.meta?.className}
                      data-label={String(cell.column.columnDef.header ?? "")}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}
