import "server-only";
import { z } from "zod";
import { isoDateTime } from "../dates";
import { filterParam, idsParam, pageParams, searchParam } from "../api/query";
import { cursorParam } from "../keyset";

export const POST_SORTS = ["latest", "top"] as const;

export const listPostsQuery = z.object({
  id: idsParam.meta({ description: "Post ids, comma-separated and/or repeated; at most 100." }),
  search: searchParam.meta({
    description: "Every whitespace-separated term must occur, case-insensitively, in the title or content. Alias: q.",
  }),
  boardId: filterParam.meta({ description: "Only posts on this board." }),
  statusId: filterParam.meta({ description: "Only posts with this status." }),
  postedById: filterParam.meta({ description: "Only posts by this user." }),
  sortBy: z
    .enum(POST_SORTS, { error: "must be latest or top" })
    .optional()
    .transform((v) => v ?? "latest")
    .meta({ description: "latest: newest first. top: most upvoted first.", default: "latest" }),
  ...pageParams,
  cursor: cursorParam,
});

export type ListPostsQuery = z.output<typeof listPostsQuery>;

export const postRecord = z
  .object({
    id: z.string(),
    title: z.string(),
    content: z.string(),
    boardId: z.string(),
    board: z.object({ id: z.string(), name: z.string() }),
    statusId: z.string().nullable(),
    status: z.object({ id: z.string(), name: z.string(), color: z.string() }).nullable(),
    postedById: z.string(),
    postedBy: z.object({ id: z.string(), name: z.string() }),
    upvotes: z.number().int(),
    commentCount: z.number().int(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "Post" });

export type PostRecord = z.infer<typeof postRecord>;

export const postParams = z.object({ postId: z.string().min(1).max(200) });
