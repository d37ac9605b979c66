// ANY /api/v1/* - a JSON 404 for every path no other route serves
import { ApiError } from "@/lib/api/errors";
import { requestIdOf, toErrorResponse } from "@/lib/api/handler";
import { logged, noteKey } from "@/lib/api/request-log";
import { authenticate } from "@/lib/auth/authenticate";

export const dynamic = "force-dynamic";

const notFound = logged(async (req: Request): Promise<Response> => {
  const requestId = requestIdOf(req.headers);
  const path = new URL(req.url).pathname;
  try {
    noteKey(req, (await authenticate(req.headers)).keyId);
    throw new ApiError("not_found", `There is no ${path}. The API's routes are listed at /api/v1/openapi.json.`);
  } catch (error) {
    return toErrorResponse(error, requestId, req.method, path);
  }
});

export { notFound as DELETE, notFound as GET, notFound as HEAD, notFound as OPTIONS, notFound as PATCH, notFound as POST, notFound as PUT };
