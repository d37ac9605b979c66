// POST /api/session - sign the dashboard in with an API key; GET - who is signed in; DELETE - sign out
import { ApiError } from "@/lib/api/errors";
import { requestIdOf, route, toErrorResponse, withApi } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { assertSameOrigin, authenticate, readCookie } from "@/lib/auth/authenticate";
import { createSession, deleteSession, SESSION_COOKIE } from "@/lib/auth/session";
import { clearedSessionCookie, sessionCookie, signInSchema } from "@/lib/auth/session-cookie";

export const dynamic = "force-dynamic";

// Sign-in and sign-out change state, so both refuse a cross-site browser request (login CSRF
// would otherwise let another site sign a moderator into the attacker's key).
async function signIn(req: Request): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  const url = new URL(req.url);
  try {
    assertSameOrigin(req.headers, url);
    const parsed = signInSchema.safeParse(await req.json().catch(() => undefined));
    if (!parsed.success) throw ApiError.invalid("key", "enter your API key");
    const principal = await authenticate(new Headers({ authorization: `Bearer ${parsed.data.key}` })).catch((error) => {
      throw error instanceof ApiError ? new ApiError("unauthorized", "That API key is not valid or has been revoked.") : error;
    });
    const { token, expiresAt } = await createSession(principal.keyId);
    return json({ data: { keyName: principal.keyName, scopes: principal.scopes } }, 200, requestId, {
      "Set-Cookie": sessionCookie(token, expiresAt, req),
    });
  } catch (error) {
    return toErrorResponse(error, requestId, req.method, url.pathname);
  }
}

async function signOut(req: Request): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  const url = new URL(req.url);
  try {
    assertSameOrigin(req.headers, url);
    const token = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
    if (token) await deleteSession(token);
    return json(null, 204, requestId, { "Set-Cookie": clearedSessionCookie(req) });
  } catch (error) {
    return toErrorResponse(error, requestId, req.method, url.pathname);
  }
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi({ scope: "read" }, async ({ principal }) => ({
    data: { keyName: principal.keyName, scopes: principal.scopes, via: principal.via },
  })),
  POST: signIn,
  DELETE: signOut,
});
