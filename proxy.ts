import { ApiError } from "@/lib/api/errors";
import { requestIdOf, toErrorResponse } from "@/lib/api/handler";
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
    const requestId = requestIdOf(req.headers);
    try {
      await authenticate(req.headers);
      throw new ApiError("invalid_request", "The path is not valid percent-encoding.", {
        details: [{ field: "path", message: "is not valid percent-encoding" }],
      });
    } catch (error) {
      return toErrorResponse(error, requestId, req.method, url.pathname);
    }
  }
}

export const config = { matcher: "/api/v1/:path(.*%.*)" };
