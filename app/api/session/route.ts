// POST /api/session - sign the dashboard in with an API key; GET - who is signed in; DELETE - sign out
import { requestMetaOf } from "@/lib/audit/record";
import { ApiError } from "@/lib/api/errors";
import { readBody } from "@/lib/api/body";
import { requestIdOf, route, toErrorResponse, withApi } from "@/lib/api/handler";
import { clientIpOf } from "@/lib/api/client";
import { takeToken } from "@/lib/api/rate-limit";
import { API_HEADERS, json } from "@/lib/api/responses";
import { assertSameOrigin, authenticate } from "@/lib/auth/authenticate";
import { looksLikeKey } from "@/lib/auth/keys";
import { createSession, deleteSession, recordRefusedSignIn } from "@/lib/auth/session";
import { logError } from "@/lib/log";
import { clearedSessionCookie, sessionCookie, sessionToken, signInSchema } from "@/lib/auth/session-cookie";

export const dynamic = "force-dynamic";

// Sign-in and sign-out change state, so both refuse a cross-site browser request (login CSRF
// would otherwise let another site sign a moderator into the attacker's key).
//
// The sign-in page posts JSON from script; before its script has loaded, the same form posts
// itself (form-urlencoded) and gets redirects instead, so signing in never depends on timing.
function isFormPost(req: Request): boolean {
  return (req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");
}

function seeOther(location: string, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: location, "X-Request-Id": requestId, ...API_HEADERS, ...headers } });
}

const invalidKey = () => new ApiError("unauthorized", "That API key is not valid or has been revoked.");

async function signIn(req: Request): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  const url = new URL(req.url);
  const form = isFormPost(req);
  try {
    assertSameOrigin(req.headers);
    const parsed = signInSchema.safeParse(await readBody(req).catch(() => undefined));
    if (!parsed.success) throw ApiError.invalid("key", "enter your API key");
    const request = requestMetaOf(requestId, clientIpOf(req.headers), req.headers);
    // A failed sign-in counts against the address, like any request without a valid key, and
    // only one within the limit reaches the audit trail, so a flood cannot fill it. A trail that
    // cannot take the event is logged, not answered with a 500: the refusal is the client's.
    const refused = async () => {
      const limitHeaders = await takeToken({ kind: "address", ip: clientIpOf(req.headers) });
      await recordRefusedSignIn(parsed.data.key, request).catch((error: unknown) =>
        logError("Could not record a refused sign-in", error, requestId),
      );
      return invalidKey().withHeaders(limitHeaders);
    };
    // Checked before the key goes into a header: a header value refuses control characters and
    // anything outside Latin-1, and no such text can be a key anyway.
    if (!looksLikeKey(parsed.data.key)) throw await refused();
    const principal = await authenticate(new Headers({ authorization: `Bearer ${parsed.data.key}` })).catch(async (error) => {
      throw error instanceof ApiError ? await refused() : error;
    });
    const { token, expiresAt } = await createSession({ id: principal.keyId, name: principal.keyName }, request, sessionToken(req.headers));
    const cookie = { "Set-Cookie": sessionCookie(token, expiresAt, req.headers) };
    if (form) return seeOther("/posts", requestId, cookie);
    return json({ data: { keyName: principal.keyName, scopes: principal.scopes } }, 200, requestId, cookie);
  } catch (error) {
    if (form && error instanceof ApiError && error.code !== "forbidden") {
      const reason = { unauthorized: "invalid", rate_limited: "limited" }[error.code as string] ?? "missing";
      return seeOther(`/login?error=${reason}`, requestId, error.headers);
    }
    return toErrorResponse(error, requestId, req.method, url.pathname);
  }
}

async function signOut(req: Request): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  const url = new URL(req.url);
  try {
    assertSameOrigin(req.headers);
    const token = sessionToken(req.headers);
    if (token) await deleteSession(token, requestMetaOf(requestId, clientIpOf(req.headers), req.headers));
    return json(null, 204, requestId, { "Set-Cookie": clearedSessionCookie(req.headers) });
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
