import { db } from "../db";
import type { ListStatusesQuery } from "./schemas";
import { serializeStatus } from "./serialize";

/** Statuses in workflow order (the order they were imported in), ties by name and id. */
export async function listStatuses(query: ListStatusesQuery) {
  const [total, rows] = await Promise.all([
    db.postStatus.count(),
    db.postStatus.findMany({
      orderBy: [{ position: "asc" }, { name: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.limit,
      take: query.limit,
      select: { id: true, name: true, color: true, position: true },
    }),
  ]);
  return { statuses: rows.map(serializeStatus), total };
}
