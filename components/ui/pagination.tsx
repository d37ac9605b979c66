"use client";

import { useId } from "react";
import type { Pagination } from "@/lib/api/responses";
import { PAGE_SIZES } from "@/lib/dashboard/list-params";
import { formatCount } from "./format";

interface Props {
  pagination: Pagination;
  noun: { one: string; many: string };
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}

export function Pager({ pagination, noun, onPage, onLimit }: Props) {
  const id = useId();
  const { page, totalPages, total, limit } = pagination;
  // A search's total stops at a bound (totalIsExact false): there are more, and more pages.
  const more = pagination.totalIsExact === false ? "+" : "";
  return (
    <nav className="pager" aria-label="Pagination">
      <div className="pager-size">
        <label htmlFor={`${id}-size`}>Rows per page</label>
        <select
          id={`${id}-size`}
          className="select"
          value={limit}
          onChange={(event) => onLimit(Number(event.target.value))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <p className="subtle" aria-live="polite" style={{ margin: 0 }}>
        Page {formatCount(page)} of {formatCount(Math.max(totalPages, 1))}
        {more} · {formatCount(total)}
        {more} {total === 1 ? noun.one : noun.many}
      </p>
      <div className="pager-buttons">
        <button type="button" className="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
          Previous page
        </button>
        <button type="button" className="button" onClick={() => onPage(page + 1)} disabled={!pagination.hasNextPage}>
          Next page
        </button>
      </div>
    </nav>
  );
}
