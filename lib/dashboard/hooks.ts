"use client";

// The dashboard's reads: React Query hooks over the public API, run in the browser. (The
// server's SQL for the same lists lives in lib/<domain>/queries.ts.)

import { keepPreviousData, type QueryKey, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { ChangelogRecord } from "../changelogs/schemas";
import type { CommentRevisionRecord, PostCommentRecord } from "../comments/schemas";
import type { PostRecord } from "../posts/schemas";
import type { UserRecord } from "../users/schemas";
import { apiFetch, apiPath, type ItemResponse, type ListResponse, type Params } from "./api-client";
import { fetchComment } from "./mutations";
import type { OptionRecords, OptionResource } from "./options";
import { type ChangelogListParams, changelogKeys, commentKeys, optionKeys, type PostListParams, postKeys, userKeys } from "./query-keys";

// The filters' option lists change rarely; the API's maximum page covers any sane install.
const OPTIONS_LIMIT = 100;
const COMMENTS_PAGE = 50;

/** A page of a list view; the last page stays on screen while the next one loads. */
function useList<T>(queryKey: QueryKey, path: string, params: Params) {
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => apiFetch<ListResponse<T>>(apiPath(path, params), { signal }),
    placeholderData: keepPreviousData,
  });
}

function useRecord<T>(queryKey: QueryKey, path: string) {
  return useQuery({ queryKey, queryFn: ({ signal }) => apiFetch<ItemResponse<T>>(apiPath(path), { signal }) });
}

export function usePosts(params: PostListParams) {
  return useList<PostRecord>(postKeys.list(params), "/posts", { ...params });
}

export function usePost(postId: string) {
  return useRecord<PostRecord>(postKeys.detail(postId), `/posts/${encodeURIComponent(postId)}`);
}

export function usePostComments(postId: string) {
  return useInfiniteQuery({
    queryKey: commentKeys.ofPost(postId),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      apiFetch<ListResponse<PostCommentRecord>>(
        apiPath(`/posts/${encodeURIComponent(postId)}/comments`, { page: pageParam, limit: COMMENTS_PAGE }),
        { signal },
      ),
    getNextPageParam: (last) => (last.pagination.hasNextPage ? last.pagination.page + 1 : undefined),
  });
}

/** A comment's versions, oldest first, and the ETag of the comment they lead up to. */
export function useCommentHistory(commentId: string) {
  return useQuery({
    queryKey: commentKeys.history(commentId),
    queryFn: async ({ signal }) => {
      // The comment first, then its revisions: a change landing in between then shows in the
      // list while the tag is older, so a restore is refused (412) rather than undoing a change
      // the moderator never saw.
      const { etag } = await fetchComment(commentId, signal);
      const revisions = await apiFetch<ItemResponse<CommentRevisionRecord[]>>(
        apiPath(`/comments/${encodeURIComponent(commentId)}/revisions`),
        { signal },
      );
      return { etag, revisions: revisions.data };
    },
  });
}

export function useChangelogs(params: ChangelogListParams) {
  return useList<ChangelogRecord>(changelogKeys.list(params), "/changelogs", { ...params });
}

export function useChangelog(changelogId: string) {
  return useRecord<ChangelogRecord>(changelogKeys.detail(changelogId), `/changelogs/${encodeURIComponent(changelogId)}`);
}

/** A filter's option list: boards, statuses or changelog labels. */
export function useOptions<R extends OptionResource>(resource: R) {
  return useQuery({
    queryKey: optionKeys.of(resource),
    queryFn: ({ signal }) =>
      apiFetch<ListResponse<OptionRecords[R]>>(apiPath(`/${resource}`, { limit: OPTIONS_LIMIT }), { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useUserSearch(search: string, enabled: boolean) {
  return useQuery({
    queryKey: userKeys.search(search),
    queryFn: ({ signal }) => apiFetch<ListResponse<UserRecord>>(apiPath("/users", { search, limit: 8 }), { signal }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useUser(id: string | undefined) {
  return useQuery({
    queryKey: userKeys.byId(id ?? ""),
    queryFn: ({ signal }) => apiFetch<ListResponse<UserRecord>>(apiPath("/users", { id: id ?? "" }), { signal }),
    enabled: Boolean(id),
    staleTime: 5 * 60_000,
    select: (response) => response.data[0] ?? null,
  });
}
