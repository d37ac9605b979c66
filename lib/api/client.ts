import { isIP } from "node:net";

// What the front door (server.ts) tells the routes about a request, in headers it sets itself
// after deleting any a client sent.

/** The client's address, as the server saw it (or the trusted proxy reported it). */
export const CLIENT_IP_HEADER = "x-feedback-client-ip";
/** The method a client used when the routes cannot be given it directly (TRACE, PROPFIND…). */
export const FORWARDED_METHOD_HEADER = "x-feedback-method";

/**
 * The address to hold a client to: the socket's peer, or behind a trusted proxy the last
 * address in X-Forwarded-For (the one that proxy saw; earlier entries are the client's own word).
 */
export function clientAddress(remote: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",");
    const last = hops[hops.length - 1]?.trim();
    if (last && isIP(last)) return last;
  }
  const address = remote ?? "unknown";
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; hold it to a.b.c.d.
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The client's address for a request that came through server.ts. */
export function clientIpOf(headers: Headers): string {
  return headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/** The method the client really sent. */
export function methodOf(req: Request): string {
  return req.headers.get(FORWARDED_METHOD_HEADER) ?? req.method;
}
