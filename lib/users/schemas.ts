import { z } from "zod";
import { pageParams, searchParam } from "../api/query";

export const listUsersQuery = z.object({
  search: searchParam.meta({
    description: "Every whitespace-separated term must occur, case-insensitively, in the name or email. Alias: q.",
  }),
  ...pageParams,
});
export type ListUsersQuery = z.output<typeof listUsersQuery>;

// The email stays out of the record: the dashboard only needs a name to pick an author, and
// a read key should not hand out everyone's address.
export const userRecord = z.object({ id: z.string(), name: z.string() }).meta({ id: "User" });

export type UserRecord = z.infer<typeof userRecord>;
