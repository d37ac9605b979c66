import "server-only";
import { z } from "zod";
import { isHttps } from "../api/origin";
import { SESSION_COOKIE } from "./session";

// The dashboard's session cookie: httpOnly so scripts never see the token, SameSite=Lax so
// other sites cannot ride on it for writes. Over https it is Secure and named with the
// `__Host-` prefix, which browsers accept only from this very host over https, with Path=/ and
// no Domain: no sibling subdomain and no plain-http page can plant one. The name follows the
// request's scheme both when setting and when reading, so an https request never believes a
// cookie without the prefix.

export const signInSchema = z.object({ key: z.string().trim().min(1).max(500) });

export function sessionCookieName(headers: Headers): string {
  return isHttps(headers) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** The session token the request carries under the cookie name its scheme calls for. */
export function sessionToken(headers: Headers): string | undefined {
  return readCookie(headers.get("cookie"), sessionCookieName(headers));
}

function attributes(headers: Headers): string {
  return `Path=/; HttpOnly; SameSite=Lax${isHttps(headers) ? "; Secure" : ""}`;
}

export function sessionCookie(token: string, expiresAt: Date, headers: Headers): string {
  return `${sessionCookieName(headers)}=${token}; ${attributes(headers)}; Expires=${expiresAt.toUTCString()}`;
}

export function clearedSessionCookie(headers: Headers): string {
  return `${sessionCookieName(headers)}=; ${attributes(headers)}; Max-Age=0`;
}
