import { z } from "zod";
import { SESSION_COOKIE } from "./session";

// The dashboard's session cookie: httpOnly so scripts never see the token, SameSite=Lax so
// other sites cannot ride on it for writes, Secure whenever the request came over https.

export const signInSchema = z.object({ key: z.string().trim().min(1).max(500) });

function isHttps(req: Request): boolean {
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return (forwarded ?? new URL(req.url).protocol.replace(":", "")) === "https";
}

function attributes(req: Request): string {
  return `Path=/; HttpOnly; SameSite=Lax${isHttps(req) ? "; Secure" : ""}`;
}

export function sessionCookie(token: string, expiresAt: Date, req: Request): string {
  return `${SESSION_COOKIE}=${token}; ${attributes(req)}; Expires=${expiresAt.toUTCString()}`;
}

export function clearedSessionCookie(req: Request): string {
  return `${SESSION_COOKIE}=; ${attributes(req)}; Max-Age=0`;
}
