import "server-only";
import { z } from "zod";
import { isoDateTime } from "../dates";
import { idsParam, listParam, pageParams, searchParam } from "../api/query";
import { cursorParam } from "../keyset";

export const CHANGELOG_STATUSES = ["Draft", "Published"] as const;
export type ChangelogStatus = (typeof CHANGELOG_STATUSES)[number];

/** "draft", "PUBLISHED", ... in the contract's spelling, or undefined. */
export function changelogStatusOf(value: string): ChangelogStatus | undefined {
  return CHANGELOG_STATUSES.find((s) => s.toLowerCase() === value.trim().toLowerCase());
}

export const listChangelogsQuery = z.object({
  id: idsParam.meta({ description: "Changelog ids, comma-separated and/or repeated; at most 100." }),
  search: searchParam.meta({
    description: "Every whitespace-separated term must occur, case-insensitively, in the title or content. Alias: q.",
  }),
  status: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const status = changelogStatusOf(value);
      if (!status) ctx.addIssue({ code: "custom", message: "must be Draft or Published" });
      return status;
    })
    .meta({ description: "Draft or Published (any case)." }),
  labels: listParam(100, "labels").meta({
    description: "Label names, comma-separated and/or repeated; a changelog matches if it has any of them.",
  }),
  ...pageParams,
  cursor: cursorParam,
});

export type ListChangelogsQuery = z.output<typeof listChangelogsQuery>;

export const changelogParams = z.object({ changelogId: z.string().min(1).max(200) });


export const changelogRecord = z
  .object({
    id: z.string(),
    title: z.string(),
    content: z.string().meta({ description: "Markdown." }),
    status: z.enum(CHANGELOG_STATUSES),
    labels: z.array(z.string()).meta({ description: "Sorted alphabetically." }),
    publishedAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "Changelog" });

export type ChangelogRecord = z.infer<typeof changelogRecord>;
