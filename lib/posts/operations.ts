import "server-only";
import { defineOperation } from "../api/define-operation";
import { listPostsQuery, postParams, postRecord } from "./schemas";

export const listPostsOperation = defineOperation({
  method: "GET",
  path: "/posts",
  summary: "List and filter posts",
  scope: "read",
  query: listPostsQuery,
  record: postRecord,
  list: true,
});

export const getPostOperation = defineOperation({
  method: "GET",
  path: "/posts/{postId}",
  summary: "Get one post",
  scope: "read",
  params: postParams,
  record: postRecord,
  etag: true,
});
