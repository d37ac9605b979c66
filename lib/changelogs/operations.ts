import "server-only";
import { defineOperation } from "../api/define-operation";
import { changelogParams, changelogRecord, listChangelogsQuery } from "./schemas";

export const listChangelogsOperation = defineOperation({
  method: "GET",
  path: "/changelogs",
  summary: "List and filter changelogs",
  scope: "read",
  query: listChangelogsQuery,
  record: changelogRecord,
  list: true,
});

export const getChangelogOperation = defineOperation({
  method: "GET",
  path: "/changelogs/{changelogId}",
  summary: "Get one changelog",
  scope: "read",
  params: changelogParams,
  record: changelogRecord,
  etag: true,
});
