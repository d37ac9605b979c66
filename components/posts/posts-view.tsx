"use client";

import { useCallback, useEffect, useId } from "react";
import { ListResults } from "@/components/ui/list-results";
import { SearchBox } from "@/components/ui/search-box";
import { useBoards, usePosts, useStatuses } from "@/lib/dashboard/hooks";
import { limitOf, pageOf } from "@/lib/dashboard/list-params";
import { useUrlState } from "@/lib/dashboard/url-state";
import { AuthorFilter } from "./author-filter";
import { PostsTable } from "./posts-table";

export const LAST_POSTS_VIEW = "feedback:last-posts-view";

export function PostsView() {
  const id = useId();
  const { params, update } = useUrlState();
  const filters = {
    search: params.get("search") ?? "",
    boardId: params.get("boardId") ?? "",
    statusId: params.get("statusId") ?? "",
    postedById: params.get("postedById") ?? "",
    sortBy: params.get("sortBy") === "top" ? "top" : "latest",
  };
  const page = pageOf(params.get("page"));
  const limit = limitOf(params.get("limit"));
  const posts = usePosts({
    search: filters.search || undefined,
    boardId: filters.boardId || undefined,
    statusId: filters.statusId || undefined,
    postedById: filters.postedById || undefined,
    sortBy: filters.sortBy,
    page,
    limit,
  });
  const boards = useBoards();
  const statuses = useStatuses();

  // The post page's "Back to posts" returns to this exact view.
  useEffect(() => {
    sessionStorage.setItem(LAST_POSTS_VIEW, params.toString());
  }, [params]);

  // Any change of filter starts again from the first page.
  const setFilter = useCallback(
    (key: string, value: string | undefined, mode: "push" | "replace" = "push") => update({ [key]: value, page: undefined }, mode),
    [update],
  );
  const filtered = Boolean(filters.search || filters.boardId || filters.statusId || filters.postedById);
  const clearFilters = () =>
    update({ search: undefined, boardId: undefined, statusId: undefined, postedById: undefined, page: undefined });

  return (
    <>
      <div className="page-header">
        <h1>Posts</h1>
      </div>
      <search className="filters" aria-label="Filter posts">
        <SearchBox label="Search posts" value={filters.search} onSearch={(v) => setFilter("search", v, "replace")} placeholder="Words in the title or text" />
        <div className="field">
          <label htmlFor={`${id}-board`}>Board</label>
          <select id={`${id}-board`} className="select" value={filters.boardId} onChange={(e) => setFilter("boardId", e.target.value)}>
            <option value="">All</option>
            {boards.data?.data.map((board) => (
              <option key={board.id} value={board.id}>
                {board.name}
              </option>
            ))}
            {filters.boardId && boards.data && !boards.data.data.some((b) => b.id === filters.boardId) ? (
              <option value={filters.boardId}>Unknown board</option>
            ) : null}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select id={`${id}-status`} className="select" value={filters.statusId} onChange={(e) => setFilter("statusId", e.target.value)}>
            <option value="">All</option>
            {statuses.data?.data.map((status) => (
              <option key={status.id} value={status.id}>
                {status.name}
              </option>
            ))}
            {filters.statusId && statuses.data && !statuses.data.data.some((s) => s.id === filters.statusId) ? (
              <option value={filters.statusId}>Unknown status</option>
            ) : null}
          </select>
        </div>
        <AuthorFilter value={filters.postedById || undefined} onChange={(userId) => setFilter("postedById", userId)} />
        <div className="field">
          <label htmlFor={`${id}-sort`}>Sort</label>
          <select
            id={`${id}-sort`}
            className="select"
            value={filters.sortBy}
            onChange={(e) => setFilter("sortBy", e.target.value === "top" ? "top" : undefined)}
          >
            <option value="latest">Latest</option>
            <option value="top">Top</option>
          </select>
        </div>
      </search>

      <ListResults
        query={posts}
        noun={{ one: "post", many: "posts" }}
        page={page}
        limit={limit}
        filtered={filtered}
        filterHint="Try fewer search words, another board or status, or any author."
        emptyHint="Posts appear here once people send feedback or you import a dataset."
        clearFilters={clearFilters}
        update={update}
        table={(props) => <PostsTable {...props} />}
      />
    </>
  );
}
