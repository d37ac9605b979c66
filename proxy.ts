import { randomBytes } from "node:crypto";
import { type NextRequest, NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { refuseAfterAdmission } from "@/lib/api/handler";
import { isHttps } from "@/lib/api/origin";
import { logged } from "@/lib/api/request-log";
import { env } from "@/lib/env";
import { contentSecurityPolicy, pageHeaders } from "@/lib/page-headers";

// Two jobs, on two sets of paths (see the matcher): the dashboard's pages get their security
// headers and a fresh CSP nonce; and /api/v1 paths holding a `%` get the API's own 400 for
// broken percent-encoding, which Next.js would otherwise answer with a bare 500 before any
// route runs. Other API requests never reach the proxy, so they pay nothing for it.

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const badApiPath = logged((req: Request) =>
  refuseAfterAdmission(
    req,
    () =>
      new ApiError("invalid_request", "The path is not valid percent-encoding.", {
        details: [{ field: "path", message: "is not valid percent-encoding" }],
      }),
  ),
);

function page(req: NextRequest): NextResponse {
  const nonce = randomBytes(16).toString("base64");
  const https = isHttps(req.headers);
  const policy = contentSecurityPolicy(nonce, { https, development: env().NODE_ENV === "development" });
  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = decodable(req.nextUrl.pathname)
    ? NextResponse.next({ request: { headers: requestHeaders } })
    : NextResponse.rewrite(new URL("/not-found", req.url), { request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(pageHeaders(policy, { https }))) response.headers.set(name, value);
  return response;
}

export async function proxy(req: NextRequest): Promise<Response | undefined> {
  if (!req.nextUrl.pathname.startsWith("/api/")) return page(req);
  return decodable(req.nextUrl.pathname) ? undefined : badApiPath(req);
}

export const config = {
  matcher: [
    "/api/v1/:path(.*%.*)",
    {
      // Every page; not the API, not Next.js's static files, and not link prefetches (which
      // carry no HTML for a policy to protect).
      source: "/((?!api/|_next/static|_next/image|favicon\\.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
