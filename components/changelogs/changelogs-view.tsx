"use client";

import { useCallback, useId } from "react";
import { ListResults } from "@/components/ui/list-results";
import { SearchBox } from "@/components/ui/search-box";
import { useChangelogs, useLabels } from "@/lib/dashboard/hooks";
import { limitOf, listOf, pageOf } from "@/lib/dashboard/list-params";
import { useUrlState } from "@/lib/dashboard/url-state";
import { ChangelogsTable } from "./changelogs-table";

const STATUSES = ["Draft", "Published"] as const;

export function ChangelogsView() {
  const id = useId();
  const { params, update } = useUrlState();
  const search = params.get("search") ?? "";
  const status = STATUSES.find((s) => s === params.get("status")) ?? "";
  const labels = listOf(params.get("labels"));
  const page = pageOf(params.get("page"));
  const limit = limitOf(params.get("limit"));
  const changelogs = useChangelogs({ search: search || undefined, status: status || undefined, labels, page, limit });
  const known = useLabels();

  const setFilter = useCallback(
    (key: string, value: string | undefined, mode: "push" | "replace" = "push") => update({ [key]: value, page: undefined }, mode),
    [update],
  );
  const filtered = Boolean(search || status || labels.length);
  const clearFilters = () => update({ search: undefined, status: undefined, labels: undefined, page: undefined });

  // Labels named in the URL stay choosable even if no changelog carries them any more.
  const labelOptions = [...(known.data?.data.map((l) => l.name) ?? [])];
  for (const label of labels) {
    if (!labelOptions.some((o) => o.toLowerCase() === label.toLowerCase())) labelOptions.push(label);
  }
  const selectedLabels = labelOptions.filter((o) => labels.some((l) => l.toLowerCase() === o.toLowerCase()));

  return (
    <>
      <div className="page-header">
        <h1>Changelogs</h1>
      </div>
      <search className="filters" aria-label="Filter changelogs">
        <SearchBox label="Search changelogs" value={search} onSearch={(v) => setFilter("search", v, "replace")} placeholder="Words in the title or text" />
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select id={`${id}-status`} className="select" value={status} onChange={(e) => setFilter("status", e.target.value)}>
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-labels`}>Labels</label>
          <select
            id={`${id}-labels`}
            className="select"
            multiple
            size={Math.min(Math.max(labelOptions.length, 2), 6)}
            value={selectedLabels}
            aria-describedby={`${id}-labels-hint`}
            onChange={(e) => {
              const chosen = [...e.target.selectedOptions].map((o) => o.value);
              setFilter("labels", chosen.length ? chosen.join(",") : undefined);
            }}
          >
            {labelOptions.map((label) => (
              <option key={label} value={label}>
                {label}
              </option>
            ))}
          </select>
          <p id={`${id}-labels-hint`} className="hint">
            Any of the chosen labels. Ctrl or ⌘ to choose several.
            {labels.length ? (
              <>
                {" "}
                <button type="button" className="button button-ghost button-small" onClick={() => setFilter("labels", undefined)}>
                  Clear labels
                </button>
              </>
            ) : null}
          </p>
        </div>
      </search>

      <ListResults
        query={changelogs}
        noun={{ one: "changelog", many: "changelogs" }}
        page={page}
        limit={limit}
        filtered={filtered}
        filterHint="Try fewer search words, another status, or other labels."
        emptyHint="Changelogs appear here once they are written or imported."
        clearFilters={clearFilters}
        update={update}
        table={(props) => <ChangelogsTable {...props} />}
      />
    </>
  );
}
