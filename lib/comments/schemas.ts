import { z } from "zod";
import { isoDateTime } from "../dates";
import { pageParams } from "../api/query";

export const MAX_COMMENT_LENGTH = 10_000;

export const commentParams = z.object({ commentId: z.string().min(1).max(200) });

const pinFlag = z
  .union([z.boolean(), z.string()], { error: "must be true or false" })
  .transform((value, ctx) => {
    if (typeof value === "boolean") return value;
    const lower = value.trim().toLowerCase();
    if (lower === "true") return true;
    if (lower === "false") return false;
    ctx.addIssue({ code: "custom", message: "must be true or false" });
    return z.NEVER;
  })
  .meta({ description: "true pins the comment, false unpins it (a boolean, or the strings true/false in any case)." });

export const updateCommentBody = z
  .object({
    commentDescription: z
      .string({ error: "must be a string" })
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1, "must not be empty")
          .max(MAX_COMMENT_LENGTH, `must be at most ${MAX_COMMENT_LENGTH} characters`),
      )
      .optional()
      .meta({ description: "The new text; trimmed; 1 to 10,000 characters." }),
    pinComment: pinFlag.optional(),
  })
  .refine((b) => b.commentDescription !== undefined || b.pinComment !== undefined, {
    message: "give commentDescription, pinComment or both",
    path: ["body"],
  });

export type UpdateCommentBody = z.output<typeof updateCommentBody>;


export const commentRecord = z
  .object({
    id: z.string(),
    postId: z.string(),
    commentDescription: z.string(),
    pinned: z.boolean(),
    pinnedAt: isoDateTime.nullable(),
    postedById: z.string(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "Comment" });

export type CommentRecord = z.infer<typeof commentRecord>;

export const listCommentsQuery = z.object({ ...pageParams });
export type ListCommentsQuery = z.output<typeof listCommentsQuery>;

// A comment as a post's list shows it: the record PUT returns, plus who wrote it.
export const postCommentRecord = commentRecord
  .extend({ postedBy: z.object({ id: z.string(), name: z.string() }) })
  .meta({ id: "PostComment" });

export type PostCommentRecord = z.infer<typeof postCommentRecord>;

export const REVISION_VIAS = ["author", "api", "dashboard", "cli"] as const;

export const commentRevisionRecord = z
  .object({
    version: z.number().int().min(1),
    commentDescription: z.string(),
    pinned: z.boolean(),
    createdAt: isoDateTime.meta({ description: "When this version was made (the original's: the comment's updatedAt before its first change)." }),
    actor: z
      .object({
        keyId: z.string().nullable(),
        name: z.string(),
        via: z.enum(REVISION_VIAS),
      })
      .meta({
        description:
          "Who made this version: a key (its name then) through the api, the dashboard or the cli; for the original (as created or imported), the comment's author, via author.",
      }),
  })
  .meta({ id: "CommentRevision" });

export type CommentRevisionRecord = z.infer<typeof commentRevisionRecord>;

export const commentRevisionsRecord = z.array(commentRevisionRecord).meta({ id: "CommentRevisions" });
