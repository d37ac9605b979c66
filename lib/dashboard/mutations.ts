"use client";

import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CommentRecord, PostCommentRecord } from "../comments/schemas";
import { apiFetch, apiPath, type ItemResponse, type ListResponse } from "./api-client";
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

function putComment(commentId: string, body: { commentDescription?: string; pinComment?: boolean }) {
  return apiFetch<ItemResponse<CommentRecord>>(apiPath(`/comments/${encodeURIComponent(commentId)}`), { method: "PUT", body });
}

/** Edits a comment's text; on success the post's comment list takes the saved record. */
export function useEditComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, text }: { commentId: string; text: string }) => putComment(commentId, { commentDescription: text }),
    onSuccess: ({ data }) => {
      queryClient.setQueryData<CommentPages>(commentKeys.ofPost(postId), (pages) => patchComment(pages, data.id, data));
    },
  });
}

/**
 * Pins or unpins at once on screen, and puts the comment back as it was if the API refuses.
 * Afterwards the list is fetched again, since pinning changes the order.
 */
export function usePinComment(postId: string) {
  const queryClient = useQueryClient();
  const key = commentKeys.ofPost(postId);
  return useMutation({
    mutationFn: ({ commentId, pinned }: { commentId: string; pinned: boolean }) => putComment(commentId, { pinComment: pinned }),
    onMutate: async ({ commentId, pinned }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CommentPages>(key);
      queryClient.setQueryData<CommentPages>(key, (pages) =>
        patchComment(pages, commentId, { pinned, pinnedAt: pinned ? new Date().toISOString() : null }),
      );
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
