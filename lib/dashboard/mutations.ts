"use client";

// Every change to a comment is made against the version the moderator was shown (If-Match), so
// a change someone else made meanwhile is never overwritten unseen: the API answers 412 with the
// comment as it is now, which replaces the stale copy in the list.

import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CommentRecord, CommentRevisionRecord, PostCommentRecord } from "../comments/schemas";
import { apiPath, apiRequest, type ItemResponse, type ListResponse } from "./api-client";
import { conflictOf } from "./comment-versions";
import { commentKeys } from "./query-keys";

type CommentPages = InfiniteData<ListResponse<PostCommentRecord>, number>;

function patchComment(pages: CommentPages | undefined, id: string, patch: Partial<PostCommentRecord>): CommentPages | undefined {
  if (!pages) return pages;
  return {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      data: page.data.map((comment) => (comment.id === id ? { ...comment, ...patch } : comment)),
    })),
  };
}

const commentPath = (commentId: string) => apiPath(`/comments/${encodeURIComponent(commentId)}`);

/** The comment as it is now, with its ETag: the version a change is then made against. */
export function fetchComment(commentId: string, signal?: AbortSignal) {
  return apiRequest<ItemResponse<CommentRecord>>(commentPath(commentId), { signal });
}

function putComment(commentId: string, body: { commentDescription?: string; pinComment?: boolean }, ifMatch: string | null) {
  return apiRequest<ItemResponse<CommentRecord>>(commentPath(commentId), { method: "PUT", body, ifMatch: ifMatch ?? undefined });
}

/** Thrown instead of pinning when the comment changed after the moderator was shown it. */
export class CommentChangedError extends Error {
  readonly current: CommentRecord;

  constructor(current: CommentRecord) {
    super("This comment changed since it was shown.");
    this.name = "CommentChangedError";
    this.current = current;
  }
}

/** The comment as it is now, when an action was refused because it had changed. */
export function changedComment(error: unknown): CommentRecord | null {
  if (error instanceof CommentChangedError) return error.current;
  return conflictOf(error)?.current ?? null;
}

function useCommentCache(postId: string) {
  const queryClient = useQueryClient();
  const key = commentKeys.ofPost(postId);
  return {
    key,
    queryClient,
    /** Puts a record from the server into the post's list in place of the copy shown. */
    put: (record: CommentRecord) => queryClient.setQueryData<CommentPages>(key, (pages) => patchComment(pages, record.id, record)),
    /** After any change, the next History shows it. */
    historyChanged: (commentId: string) => queryClient.invalidateQueries({ queryKey: commentKeys.history(commentId) }),
  };
}

/** Opens a comment for editing: fetches it, so the editor holds its current text and version. */
export function useOpenComment(postId: string) {
  const cache = useCommentCache(postId);
  return useMutation({
    mutationFn: (commentId: string) => fetchComment(commentId),
    onSuccess: ({ body }) => cache.put(body.data),
  });
}

/** Saves a comment's text against the version that was opened. */
export function useEditComment(postId: string) {
  const cache = useCommentCache(postId);
  return useMutation({
    mutationFn: ({ commentId, text, etag }: { commentId: string; text: string; etag: string | null }) =>
      putComment(commentId, { commentDescription: text }, etag),
    onSuccess: ({ body }) => cache.put(body.data),
    onError: (error) => {
      const current = changedComment(error);
      if (current) cache.put(current);
    },
    onSettled: (_data, _error, { commentId }) => cache.historyChanged(commentId),
  });
}

interface PinVariables {
  commentId: string;
  pinned: boolean;
  /** updatedAt of the comment as shown when the moderator pressed the button. */
  shownUpdatedAt: string;
}

/**
 * Pins or unpins at once on screen, and puts the comment back as it was if the API refuses.
 * The list carries no versions, so the comment is fetched first: if it changed since it was
 * shown, nothing is pinned and the moderator sees it as it is now. Afterwards the list is
 * fetched again, since pinning changes the order.
 */
export function usePinComment(postId: string) {
  const cache = useCommentCache(postId);
  const { key, queryClient } = cache;
  return useMutation({
    mutationFn: async ({ commentId, pinned, shownUpdatedAt }: PinVariables) => {
      const { body, etag } = await fetchComment(commentId);
      if (body.data.updatedAt !== shownUpdatedAt) throw new CommentChangedError(body.data);
      return putComment(commentId, { pinComment: pinned }, etag);
    },
    onMutate: async ({ commentId, pinned }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CommentPages>(key);
      queryClient.setQueryData<CommentPages>(key, (pages) =>
        patchComment(pages, commentId, { pinned, pinnedAt: pinned ? new Date().toISOString() : null }),
      );
      return { previous };
    },
    // The saved updatedAt at once, so a second press before the list is fetched again compares
    // against this change and not the one before it.
    onSuccess: ({ body }) => cache.put(body.data),
    onError: (error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      const current = changedComment(error);
      if (current) cache.put(current);
    },
    onSettled: (_data, _error, { commentId }) => {
      cache.historyChanged(commentId);
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** Makes an older version current again: an ordinary update of its text and pin state. */
export function useRestoreComment(postId: string) {
  const cache = useCommentCache(postId);
  return useMutation({
    mutationFn: ({ commentId, revision, etag }: { commentId: string; revision: CommentRevisionRecord; etag: string | null }) =>
      putComment(commentId, { commentDescription: revision.commentDescription, pinComment: revision.pinned }, etag),
    onSuccess: ({ body }) => cache.put(body.data),
    onError: (error) => {
      const current = changedComment(error);
      if (current) cache.put(current);
    },
    onSettled: (_data, _error, { commentId }) => {
      cache.historyChanged(commentId);
      // The pin state may have changed, and with it the order.
      return cache.queryClient.invalidateQueries({ queryKey: cache.key });
    },
  });
}
