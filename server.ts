// The HTTP server: Next.js behind a thin front door. Node's parser and Next.js answer some
// requests before any route runs (an unknown method, an over-long URL, a trailing slash), in
// text or HTML; under /api/v1 every answer must be the API's JSON, so those requests are
// shaped here into ones the routes answer themselves. It also hands the routes the client's
// address, which the App Router does not expose.
import http from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import next from "next";
import { env } from "./lib/env";
import { CLIENT_IP_HEADER, clientAddress, FORWARDED_METHOD_HEADER } from "./lib/api/client";

const root = import.meta.dirname;

/** Methods the route handlers serve; any other is brought to them as OPTIONS, marked. */
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Longer request targets are refused with 414 before Next.js parses them. */
const MAX_URL_BYTES = 8 * 1024;
/** Node's limit on the request line and headers together; over it Node gives up on parsing. */
const MAX_HEADER_BYTES = 32 * 1024;

function rawJson(status: number, code: string, message: string): string {
  const body = JSON.stringify({ error: { code, message } });
  return [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
    "Content-Type: application/json; charset=utf-8",
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    "Connection: close",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "",
    body,
  ].join("\r\n");
}

/** A request Node could not parse never reaches a handler: answer in the API's shape. */
function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code = error.code ?? "";
  if (code === "HPE_HEADER_OVERFLOW") {
    socket.end(rawJson(431, "request_header_fields_too_large", `The request line and headers must fit in ${MAX_HEADER_BYTES} bytes.`));
  } else if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "ECONNRESET") {
    socket.destroy();
  } else {
    socket.end(rawJson(400, "invalid_request", "The request is not valid HTTP."));
  }
}

function send(res: http.ServerResponse, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

/** Rewrites an /api request so a route handler answers it; false when it was answered here. */
function prepareApiRequest(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const target = req.url ?? "/";
  if (Buffer.byteLength(target) > MAX_URL_BYTES) {
    send(res, 414, "uri_too_long", `The request URL must be at most ${MAX_URL_BYTES} bytes.`);
    return false;
  }
  const method = req.method ?? "GET";
  if (!ROUTE_METHODS.has(method)) {
    // Route handlers cannot export TRACE, PROPFIND and friends; the route's OPTIONS handler
    // answers for them (authentication, then 405 with that route's Allow).
    req.headers[FORWARDED_METHOD_HEADER] = method;
    req.method = "OPTIONS";
  }
  // /api/v1/posts/ is /api/v1/posts: Next.js would redirect, in text, before authenticating.
  const queryAt = target.indexOf("?");
  const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
  if (pathname.length > 1 && pathname.endsWith("/")) {
    req.url = pathname.replace(/\/+$/, "") + (queryAt === -1 ? "" : target.slice(queryAt));
  }
  return true;
}

async function main(): Promise<void> {
  const config = env();
  const app = next({ dev: false, dir: root, hostname: config.HOSTNAME, port: config.PORT });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    // Never believe a client that names its own address or method: only this server sets them.
    delete req.headers[CLIENT_IP_HEADER];
    delete req.headers[FORWARDED_METHOD_HEADER];
    req.headers[CLIENT_IP_HEADER] = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], config.TRUST_PROXY);
    if ((req.url ?? "").startsWith("/api/") && !prepareApiRequest(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`request failed before any route: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) send(res, 500, "internal_error", "Something went wrong on our side.");
      else res.destroy();
    });
  });
  server.on("clientError", onClientError);
  server.listen(config.PORT, config.HOSTNAME, () => {
    process.stderr.write(`Listening on http://${config.HOSTNAME}:${config.PORT} (${path.relative(process.cwd(), root) || "."})\n`);
  });

  // Finish the requests under way, then exit; the instrumentation hook closes the database
  // pool alongside. Connections a client keeps alive would hold the process open, so idle ones
  // are closed now and the rest get five seconds.
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`The server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
