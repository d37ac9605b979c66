import { defineOperation } from "../api/define-operation";
import { listUsersQuery, userRecord } from "./schemas";

export const listUsersOperation = defineOperation({
  method: "GET",
  path: "/users",
  summary: "Find users",
  description: "By name, then id. The dashboard's author filter searches here.",
  scope: "read",
  query: listUsersQuery,
  record: userRecord,
  list: true,
});
