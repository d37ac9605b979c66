import "server-only";
import { headers } from "next/headers";
import { ApiError } from "../api/errors";
import { logError } from "../log";
import { authenticate, type Principal } from "./authenticate";
import { sessionToken } from "./session-cookie";

// For server components: the signed-in moderator, checked against the database on every page
// load, so a revoked key or an expired session sends the browser back to /login. A database
// that does not answer is not a signed-out moderator: pages show an error with Retry instead,
// rather than a sign-in form that would not work either.

export type PageSession =
  | { status: "signed-in"; principal: Principal }
  | { status: "signed-out" }
  | { status: "unavailable" };

export async function pageSession(): Promise<PageSession> {
  const request = new Headers(await headers());
  // A page trusts only the session cookie: a browser never sends a Bearer key by itself.
  request.delete("authorization");
  if (!sessionToken(request)) return { status: "signed-out" };
  try {
    return { status: "signed-in", principal: await authenticate(request) };
  } catch (error) {
    if (error instanceof ApiError) return { status: "signed-out" };
    logError("checking a dashboard session failed", error);
    return { status: "unavailable" };
  }
}
