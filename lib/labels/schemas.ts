import { z } from "zod";
import { pageParams } from "../api/query";

export const listLabelsQuery = z.object({ ...pageParams });
export type ListLabelsQuery = z.output<typeof listLabelsQuery>;

export const labelRecord = z
  .object({
    name: z.string().meta({ description: "The label as first written; labels compare case-insensitively." }),
    changelogCount: z.number().int(),
  })
  .meta({ id: "ChangelogLabel" });

export type LabelRecord = z.infer<typeof labelRecord>;
