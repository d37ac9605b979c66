import { z } from "zod";
import { idsParam, pageParams, searchParam } from "../api/query";

export const listUsersQuery = z.object({
  id: idsParam.meta({ description: "User ids, comma-separated and/or repeated; at most 100." }),
  search: searchParam.meta({
    description: "Every whitespace-separated term must occur, case-insensitively, in the name. Alias: q.",
  }),
  ...pageParams,
});
export type ListUsersQuery = z.output<typeof listUsersQuery>;

// The email stays out of the record: the dashboard only needs a name to pick an author, and
// a read key should not hand out everyone's address.
export const userRecord = z.object({ id: z.string(), name: z.string() }).meta({ id: "User" });

export type UserRecord = z.infer<typeof userRecord>;
