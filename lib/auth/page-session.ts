import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { authenticate, type Principal } from "./authenticate";
import { SESSION_COOKIE } from "./session";

// For server components: the signed-in moderator, checked against the database on every page
// load, so a revoked key or an expired session sends the browser back to /login.

export async function pageSession(): Promise<Principal | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  try {
    return await authenticate(new Headers({ cookie: `${SESSION_COOKIE}=${token}` }));
  } catch {
    return null;
  }
}

export async function requirePageSession(): Promise<Principal> {
  const principal = await pageSession();
  if (!principal) redirect("/login");
  return principal;
}
