// GET /api/v1/users - find users (the dashboard's author filter)
import { route, withApi } from "@/lib/api/handler";
import { pagination } from "@/lib/api/responses";
import { listUsersOperation } from "@/lib/users/operations";
import { listUsers } from "@/lib/users/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listUsersOperation, async ({ query }) => {
    const { users: list, total } = await listUsers(query);
    return { list, pagination: pagination(query.page, query.limit, total) };
  }),
});
