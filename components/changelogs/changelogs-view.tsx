"use client";

import { useId } from "react";
import { ListResults } from "@/components/ui/list-results";
import { OptionsSelect } from "@/components/ui/options-select";
import { SearchBox } from "@/components/ui/search-box";
import { useChangelogs } from "@/lib/dashboard/hooks";
import { limitOf, listOf, pageOf } from "@/lib/dashboard/list-params";
import { useUrlState } from "@/lib/dashboard/url-state";
import { ChangelogsTable } from "./changelogs-table";

const STATUSES = ["Draft", "Published"] as const;

export function ChangelogsView() {
  const id = useId();
  const { params, update, setFilter } = useUrlState();
  const search = params.get("search") ?? "";
  const status = STATUSES.find((s) => s === params.get("status")) ?? "";
  const labels = listOf(params.get("labels"));
  const page = pageOf(params.get("page"));
  const limit = limitOf(params.get("limit"));
  const changelogs = useChangelogs({ search: search || undefined, status: status || undefined, labels, page, limit });

  const filtered = Boolean(search || status || labels.length);
  const clearFilters = () => update({ search: undefined, status: undefined, labels: undefined, page: undefined });

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
        <OptionsSelect
          label="Labels"
          resource="labels"
          chosen={labels}
          onChange={(chosen) => setFilter("labels", chosen.join(","))}
          multiple
          hint={
            <>
              Any of the chosen labels. Ctrl or ⌘ to choose several.
              {labels.length ? (
                <>
                  {" "}
                  <button type="button" className="button button-ghost button-small" onClick={() => setFilter("labels", undefined)}>
                    Clear labels
                  </button>
                </>
              ) : null}
            </>
          }
        />
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
