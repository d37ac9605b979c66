import "server-only";
import { env } from "../env";

// The origin the browser sees: scheme and host. Behind a TLS-terminating proxy that is what
// X-Forwarded-Proto / X-Forwarded-Host say, but any client can send those headers, so they are
// believed only when TRUST_PROXY says a proxy sets them. Otherwise the scheme is the server's
// own (this server speaks plain http: Next.js fills X-Forwarded-Proto from the client when it
// is present, so neither that header nor the request URL's scheme can be used) and the host is
// the Host header, which a browser always sets to the address it is talking to.

export interface PublicOrigin {
  protocol: "http" | "https";
  host: string;
  /** `scheme://host`, normalized as the URL standard does (lower case, no default port). */
  origin: string;
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

function firstValue(value: string | null): string | undefined {
  return value?.split(",")[0]?.trim() || undefined;
}

export function publicOrigin(headers: Headers): PublicOrigin {
  const trusted = env().TRUST_PROXY;
  const forwardedProto = trusted ? firstValue(headers.get("x-forwarded-proto"))?.toLowerCase() : undefined;
  const protocol = forwardedProto === "https" ? "https" : "http";
  const host = (trusted ? firstValue(headers.get("x-forwarded-host")) : undefined) ?? headers.get("host") ?? "localhost";
  return { protocol, host, origin: originOf(protocol, host) };
}

/** A host with anything but host characters (a path, userinfo) gets an origin no Origin equals. */
function originOf(protocol: string, host: string): string {
  if (!HOST.test(host)) return "";
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return "";
  }
}

export const isHttps = (headers: Headers): boolean => publicOrigin(headers).protocol === "https";
