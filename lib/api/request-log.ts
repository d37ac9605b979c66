import "server-only";
import { logRequest, requestsLogged } from "../log";
import { methodOf } from "./client";

// One log line per /api/v1 request, written once the response exists, whichever way it was
// made. The wrapper that authenticates notes the key's id against the request; the key itself
// never reaches the log.

const keyIds = new WeakMap<Request, string>();

export function noteKey(req: Request, keyId: string): void {
  keyIds.set(req, keyId);
}

export function logged<A extends unknown[], R extends Response | Promise<Response>>(
  handler: (req: Request, ...rest: A) => R,
): (req: Request, ...rest: A) => Promise<Response> {
  return async (req, ...rest) => {
    // Above info (LOG_LEVEL=warn), no line is made: its time, its id and its path cost each request.
    if (!requestsLogged()) {
      const response: Response = await handler(req, ...rest);
      return response;
    }
    const started = performance.now();
    let response: Response | undefined;
    try {
      response = await handler(req, ...rest);
      return response;
    } finally {
      logRequest({
        // The id the response carries: the caller's if it was sane, else the one made for it.
        requestId: response?.headers.get("x-request-id") ?? "",
        method: methodOf(req),
        // The path alone: a query string may hold search text, which is the caller's business.
        path: new URL(req.url).pathname,
        status: response?.status ?? 500,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        ...(keyIds.has(req) ? { keyId: keyIds.get(req) } : {}),
      });
    }
  };
}
