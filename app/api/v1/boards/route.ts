// GET /api/v1/boards - list the boards
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listBoardsOperation } from "@/lib/boards/operations";
import { listBoards } from "@/lib/boards/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listBoardsOperation, async ({ query }) => {
    const { boards: list, total } = await listBoards(query);
    return { list, pagination: pagination(query.page, query.limit, total) };
  }),
});
