import { defineOperation } from "../api/define-operation";
import { listStatusesQuery, statusRecord } from "./schemas";

export const listStatusesOperation = defineOperation({
  method: "GET",
  path: "/statuses",
  summary: "List post statuses",
  description: "In workflow order.",
  scope: "read",
  query: listStatusesQuery,
  record: statusRecord,
  list: true,
});
