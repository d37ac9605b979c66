import { z } from "zod";
import { pageParams } from "../api/query";

export const listStatusesQuery = z.object({ ...pageParams });
export type ListStatusesQuery = z.output<typeof listStatusesQuery>;

export const statusRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    color: z.string().meta({ example: "#3b82f6" }),
    position: z.number().int().meta({ description: "Where the status sits in the workflow, from 0." }),
  })
  .meta({ id: "PostStatus" });

export type StatusRecord = z.infer<typeof statusRecord>;
