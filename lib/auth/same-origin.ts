import "server-only";
import { ApiError } from "../api/errors";
import { publicOrigin } from "../api/origin";

const crossSite = () => new ApiError("forbidden", "Cross-site requests may not change data.");

function originOf(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a session-authenticated write that a browser sent from another site. Bearer
 * requests are not at risk: a browser never adds that header by itself. The Origin must
 * match the public origin in scheme as well as host, so a page served over plain http (which
 * anyone on the network can write) cannot act on the https site.
 */
export function assertSameOrigin(headers: Headers): void {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") throw crossSite();
  const origin = headers.get("origin");
  if (origin === null) return;
  if (origin === "null" || originOf(origin) !== publicOrigin(headers).origin) throw crossSite();
}
