import "server-only";
import { defineOperation } from "../api/define-operation";
import { postParams } from "../posts/schemas";
import {
  commentParams,
  commentRecord,
  commentRevisionsRecord,
  listCommentsQuery,
  postCommentRecord,
  updateCommentBody,
} from "./schemas";

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

export const getCommentOperation = defineOperation({
  method: "GET",
  path: "/comments/{commentId}",
  summary: "Get one comment",
  description: "Its ETag is its version; send it back as If-Match when you edit the comment.",
  scope: "read",
  params: commentParams,
  record: commentRecord,
  etag: true,
});

export const updateCommentOperation = defineOperation({
  method: "PUT",
  path: "/comments/{commentId}",
  summary: "Edit or pin a comment",
  description:
    "Give commentDescription, pinComment or both. Pinning stamps pinnedAt; unpinning clears it. With If-Match (the ETag of the version you edited), the change applies only if that is still the current version, else 412 precondition_failed with the current record as error.current; the check and the write are atomic. The answer carries the new ETag. Each change is kept as a revision and recorded in the audit trail.",
  scope: "write",
  params: commentParams,
  body: updateCommentBody,
  record: commentRecord,
  ifMatch: true,
});

export const listRevisionsOperation = defineOperation({
  method: "GET",
  path: "/comments/{commentId}/revisions",
  summary: "List a comment's versions",
  description:
    "Every version of the comment's text and pin state, oldest first, each with who made it and when. The first is the original, by the comment's author.",
  scope: "read",
  params: commentParams,
  record: commentRevisionsRecord,
  etag: true,
});
