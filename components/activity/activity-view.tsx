"use client";

import { type ReactNode, useId } from "react";
import { SearchBox } from "@/components/ui/search-box";
import { EmptyState, ErrorState } from "@/components/ui/states";
import type { AuditAction } from "@/lib/audit/record";
import { useAuditEvents } from "@/lib/dashboard/activity";
import { ACTION_LABELS, ACTIONS, isoToLocal, localToIso, RESOURCE_TYPES, validIso } from "@/lib/dashboard/audit-format";
import { listOf } from "@/lib/dashboard/list-params";
import { useUrlState } from "@/lib/dashboard/url-state";
import { ActivityTable } from "./activity-table";

const PAGE_SIZE = 50;
const FILTERS = ["action", "resourceType", "resourceId", "actorKeyId", "since", "until"] as const;

/** The audit trail, newest first, filtered by what the address says; a page at a time by cursor. */
export function ActivityView() {
  const id = useId();
  const { params, update } = useUrlState();
  const action = listOf(params.get("action")).filter((a): a is AuditAction => (ACTIONS as string[]).includes(a));
  const resourceType = RESOURCE_TYPES.find((t) => t === params.get("resourceType")) ?? "";
  const resourceId = params.get("resourceId") ?? "";
  const actorKeyId = params.get("actorKeyId") ?? "";
  const since = validIso(params.get("since"));
  const until = validIso(params.get("until"));
  const cursor = params.get("cursor") ?? undefined;
  const events = useAuditEvents({
    action,
    resourceType: resourceType || undefined,
    resourceId: resourceId || undefined,
    actorKeyId: actorKeyId || undefined,
    since,
    until,
    cursor,
    limit: PAGE_SIZE,
  });

  // Any change of filter starts again from the newest event.
  const setFilter = (key: (typeof FILTERS)[number], value: string | undefined, mode: "push" | "replace" = "push") =>
    update({ [key]: value, cursor: undefined }, mode);
  const filtered = FILTERS.some((key) => params.get(key));
  const clearFilters = () => update(Object.fromEntries([...FILTERS, "cursor"].map((key) => [key, undefined])));

  const data = events.data;
  let results: ReactNode;
  if (events.isError && !data) {
    results = <ErrorState title="The activity could not be loaded." error={events.error} onRetry={() => events.refetch()} />;
  } else if (data && data.data.length === 0) {
    results = cursor ? (
      <EmptyState
        title="No older events."
        action={
          <button type="button" className="button" onClick={() => update({ cursor: undefined })}>
            Back to the newest
          </button>
        }
      />
    ) : filtered ? (
      <EmptyState
        title="No events match these filters."
        action={
          <button type="button" className="button" onClick={clearFilters}>
            Clear filters
          </button>
        }
      >
        Try another action, a wider time range, or no resource or key.
      </EmptyState>
    ) : (
      <EmptyState title="No activity yet.">Edits, pins, keys, imports and sign-ins appear here as they happen.</EmptyState>
    );
  } else {
    results = (
      <>
        {events.isError ? (
          <div className="alert" role="alert">
            Could not refresh the activity.{" "}
            <button type="button" className="button button-small" onClick={() => events.refetch()}>
              Retry
            </button>
          </div>
        ) : null}
        <ActivityTable
          rows={data?.data}
          loading={!data}
          fetching={events.isFetching}
          onActor={(keyId) => setFilter("actorKeyId", keyId)}
        />
        <nav className="pager" aria-label="Pagination">
          <p className="subtle" aria-live="polite" style={{ margin: 0 }}>
            {data ? `${data.data.length} ${data.data.length === 1 ? "event" : "events"}, newest first` : "Loading…"}
          </p>
          <div className="pager-buttons">
            <button type="button" className="button" onClick={() => update({ cursor: undefined })} disabled={!cursor}>
              Newest
            </button>
            <button
              type="button"
              className="button"
              onClick={() => update({ cursor: data?.nextCursor ?? undefined })}
              disabled={!data?.nextCursor}
            >
              Older events
            </button>
          </div>
        </nav>
      </>
    );
  }

  return (
    <>
      <div className="page-header">
        <h1>Activity</h1>
        <p className="subtle">Every change made through the API, the dashboard and the command line.</p>
      </div>
      <search className="filters" aria-label="Filter activity">
        <div className="field">
          <label htmlFor={`${id}-action`}>Action</label>
          <select
            id={`${id}-action`}
            className="select"
            multiple
            size={4}
            value={action}
            aria-describedby={`${id}-action-hint`}
            onChange={(event) =>
              setFilter(
                "action",
                [...event.target.selectedOptions].map((option) => option.value).join(",") || undefined,
              )
            }
          >
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {ACTION_LABELS[a]}
              </option>
            ))}
          </select>
          <p id={`${id}-action-hint`} className="hint">
            Any of the chosen actions. Ctrl or ⌘ to choose several.
            {action.length ? (
              <>
                {" "}
                <button type="button" className="button button-ghost button-small" onClick={() => setFilter("action", undefined)}>
                  Clear actions
                </button>
              </>
            ) : null}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Resource</label>
          <select
            id={`${id}-type`}
            className="select"
            value={resourceType}
            onChange={(event) => setFilter("resourceType", event.target.value || undefined)}
          >
            <option value="">All</option>
            {RESOURCE_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <SearchBox label="Resource id" value={resourceId} onSearch={(v) => setFilter("resourceId", v, "replace")} placeholder="c-first" />
        <SearchBox label="Key id" value={actorKeyId} onSearch={(v) => setFilter("actorKeyId", v, "replace")} placeholder="key_…" />
        <div className="field field-time">
          <label htmlFor={`${id}-since`}>From</label>
          <input
            id={`${id}-since`}
            className="input"
            type="datetime-local"
            value={isoToLocal(since ?? null)}
            onChange={(event) => setFilter("since", localToIso(event.target.value))}
          />
        </div>
        <div className="field field-time">
          <label htmlFor={`${id}-until`}>To</label>
          <input
            id={`${id}-until`}
            className="input"
            type="datetime-local"
            value={isoToLocal(until ?? null)}
            onChange={(event) => setFilter("until", localToIso(event.target.value, "end"))}
          />
        </div>
      </search>
      {results}
    </>
  );
}
