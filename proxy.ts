import { ApiError } from "@/lib/api/errors";
import { refuseAfterAdmission } from "@/lib/api/handler";

// Next.js answers a path with broken percent-encoding (`/api/v1/changelogs/%`) with a bare 500
// before any route runs. This proxy runs only for /api/v1 paths holding a `%` and turns those
// into the API's own 400; every other request never reaches it.
export async function proxy(req: Request): Promise<Response | undefined> {
  try {
    decodeURIComponent(new URL(req.url).pathname);
    return undefined;
  } catch {
    return refuseAfterAdmission(
      req,
      () =>
        new ApiError("invalid_request", "The path is not valid percent-encoding.", {
          details: [{ field: "path", message: "is not valid percent-encoding" }],
        }),
    );
  }
}

export const config = { matcher: "/api/v1/:path(.*%.*)" };
