import "server-only";
import { z } from "zod";
import { CHANGELOG_STATUSES } from "../changelogs/schemas";
import { MAX_COMMENT_LENGTH } from "../comments/schemas";

// Import format, version 1 (CONTRACT.md section 5).

const id = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const time = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, like 2026-01-02T03:04:05.000Z" }).transform((s) => new Date(s));
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #3b82f6");

export const importFile = z
  .object({
    version: z.literal(1, { error: "must be 1" }),
    boards: z.array(z.object({ id, name: text(200).min(1, "must not be empty") })).default([]),
    statuses: z
      .array(
        z.object({
          id,
          name: text(100).min(1, "must not be empty"),
          color,
          // The place in the workflow; without it, the status's index in the file.
          position: z.number().int("must be a whole number").min(0, "must not be negative").max(2_147_483_647).optional(),
        }),
      )
      .default([]),
    users: z
      .array(z.object({ id, name: text(200).min(1, "must not be empty"), email: z.email("must be an email address").nullish() }))
      .default([]),
    posts: z
      .array(
        z.object({
          id,
          title: text(500).min(1, "must not be empty"),
          content: text(100_000),
          boardId: id,
          statusId: id.nullish().transform((v) => v ?? null),
          postedById: id,
          upvotes: z.number().int("must be a whole number").min(0, "must not be negative").max(2_147_483_647).default(0),
          createdAt: time,
          updatedAt: time.optional(),
        }),
      )
      .default([]),
    comments: z
      .array(
        z.object({
          id,
          postId: id,
          postedById: id,
          commentDescription: text(MAX_COMMENT_LENGTH).min(1, "must not be empty"),
          pinned: z.boolean().default(false),
          pinnedAt: time.nullish(),
          createdAt: time,
          updatedAt: time.optional(),
        }),
      )
      .default([]),
    changelogs: z
      .array(
        z
          .object({
            id,
            title: text(500).min(1, "must not be empty"),
            content: text(200_000),
            status: z.enum(CHANGELOG_STATUSES, { error: "must be Draft or Published" }),
            labels: z.array(text(100).trim().min(1, "must not be empty")).max(50).default([]),
            publishedAt: time.nullish(),
            createdAt: time,
            updatedAt: time.optional(),
          })
          .superRefine((c, ctx) => {
            if (c.status === "Published" && !c.publishedAt) {
              ctx.addIssue({ code: "custom", path: ["publishedAt"], message: "a Published changelog needs publishedAt" });
            }
            if (c.status === "Draft" && c.publishedAt) {
              ctx.addIssue({ code: "custom", path: ["publishedAt"], message: "a Draft changelog must not have publishedAt" });
            }
          }),
      )
      .default([]),
  });

export type ImportFile = z.output<typeof importFile>;

/** `posts[3].boardId` from a zod path. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out ? `.${String(part)}` : String(part);
  return out || "(file)";
}
