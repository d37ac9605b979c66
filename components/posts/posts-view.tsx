"use client";

import { useEffect, useId } from "react";
import { ListResults } from "@/components/ui/list-results";
import { OptionsSelect } from "@/components/ui/options-select";
import { SearchBox } from "@/components/ui/search-box";
import { usePosts } from "@/lib/dashboard/hooks";
import { limitOf, pageOf } from "@/lib/dashboard/list-params";
import { useUrlState } from "@/lib/dashboard/url-state";
import { AuthorFilter } from "./author-filter";
import { PostsTable } from "./posts-table";

export const LAST_POSTS_VIEW = "feedback:last-posts-view";

export function PostsView() {
  const id = useId();
  const { params, update, setFilter } = useUrlState();
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

  // The post page's "Back to posts" returns to this exact view.
  useEffect(() => {
    sessionStorage.setItem(LAST_POSTS_VIEW, params.toString());
  }, [params]);

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
        <OptionsSelect
          label="Board"
          resource="boards"
          chosen={filters.boardId ? [filters.boardId] : []}
          onChange={([boardId]) => setFilter("boardId", boardId)}
        />
        <OptionsSelect
          label="Status"
          resource="statuses"
          chosen={filters.statusId ? [filters.statusId] : []}
          onChange={([statusId]) => setFilter("statusId", statusId)}
        />
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
