import { defineOperation } from "../api/define-operation";
import { boardRecord, listBoardsQuery } from "./schemas";

export const listBoardsOperation = defineOperation({
  method: "GET",
  path: "/boards",
  summary: "List boards",
  description: "By name, then id.",
  scope: "read",
  query: listBoardsQuery,
  record: boardRecord,
  list: true,
});
