import { defineOperation } from "../api/define-operation";
import { labelRecord, listLabelsQuery } from "./schemas";

export const listLabelsOperation = defineOperation({
  method: "GET",
  path: "/labels",
  summary: "List changelog labels",
  description: "Distinct labels (compared case-insensitively), alphabetically, with how many changelogs carry each.",
  scope: "read",
  query: listLabelsQuery,
  record: labelRecord,
  list: true,
});
