// Query keys, one factory per resource, so a mutation can name exactly the lists it touches.

import type { OptionResource } from "./options";

export interface PostListParams {
  search?: string;
  boardId?: string;
  statusId?: string;
  postedById?: string;
  sortBy?: string;
  page: number;
  limit: number;
}

export interface ChangelogListParams {
  search?: string;
  status?: string;
  labels: string[];
  page: number;
  limit: number;
}

export const postKeys = {
  all: ["posts"] as const,
  lists: () => [...postKeys.all, "list"] as const,
  list: (params: PostListParams) => [...postKeys.lists(), params] as const,
  detail: (postId: string) => [...postKeys.all, "detail", postId] as const,
};

export const commentKeys = {
  all: ["comments"] as const,
  ofPost: (postId: string) => [...commentKeys.all, "post", postId] as const,
  history: (commentId: string) => [...commentKeys.all, "history", commentId] as const,
};

export const changelogKeys = {
  all: ["changelogs"] as const,
  lists: () => [...changelogKeys.all, "list"] as const,
  list: (params: ChangelogListParams) => [...changelogKeys.lists(), params] as const,
  detail: (changelogId: string) => [...changelogKeys.all, "detail", changelogId] as const,
};

export const optionKeys = { of: (resource: OptionResource) => [resource] as const };
export const userKeys = {
  all: ["users"] as const,
  search: (search: string) => [...userKeys.all, "search", search] as const,
  byId: (id: string) => [...userKeys.all, "id", id] as const,
};
