import "server-only";
import { defineOperation } from "../api/define-operation";
import { postParams } from "../posts/schemas";
import { commentParams, commentRecord, listCommentsQuery, postCommentRecord, updateCommentBody } from "./schemas";

export const listPostCommentsOperation = defineOperation({
  method: "GET",
  path: "/posts/{postId}/comments",
  summary: "List a post's comments",
  description: "Pinned comments first, then oldest first; ties by id. An unknown post is a 404.",
  scope: "read",
  params: postParams,
  query: listCommentsQuery,
  record: postCommentRecord,
  list: true,
});

export const updateCommentOperation = defineOperation({
  method: "PUT",
  path: "/comments/{commentId}",
  summary: "Edit or pin a comment",
  description: "Give commentDescription, pinComment or both. Pinning stamps pinnedAt; unpinning clears it.",
  scope: "write",
  params: commentParams,
  body: updateCommentBody,
  record: commentRecord,
});
