import { z } from "zod";
import { pageParams } from "../api/query";

export const listBoardsQuery = z.object({ ...pageParams });
export type ListBoardsQuery = z.output<typeof listBoardsQuery>;

export const boardRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    postCount: z.number().int().meta({ description: "How many posts the board holds." }),
  })
  .meta({ id: "Board" });

export type BoardRecord = z.infer<typeof boardRecord>;
