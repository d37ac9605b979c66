import { ApiError } from "@/lib/api/errors";
import { requestIdOf, toErrorResponse } from "@/lib/api/handler";
import { logged, noteKey } from "@/lib/api/request-log";
import { authenticate } from "@/lib/auth/authenticate";

// Next.js answers a path with broken percent-encoding (`/api/v1/changelogs/%`) with a bare 500
// before any route runs. This proxy runs only for /api/v1 paths holding a `%` and turns those
// into the API's own 400; every other request never reaches it.
export async function proxy(req: Request): Promise<Response | undefined> {
  const url = new URL(req.url);
  try {
    decodeURIComponent(url.pathname);
    return undefined;
  } catch {
    return refuseEncoding(req);
  }
}

const refuseEncoding = logged(async (req: Request): Promise<Response> => {
  const requestId = requestIdOf(req.headers);
  try {
    noteKey(req, (await authenticate(req.headers)).keyId);
    throw new ApiError("invalid_request", "The path is not valid percent-encoding.", {
      details: [{ field: "path", message: "is not valid percent-encoding" }],
    });
  } catch (error) {
    return toErrorResponse(error, requestId, req.method, new URL(req.url).pathname);
  }
});

export const config = { matcher: "/api/v1/:path(.*%.*)" };
