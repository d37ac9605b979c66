// The HTTP server: Next.js behind a thin front door. Node's parser and Next.js answer some
// requests before any route runs (an unknown method, an over-long URL, a trailing slash), in
// text or HTML; under /api/v1 every answer must be the API's JSON, so those requests are
// shaped here into ones the routes answer themselves. It also hands the routes the client's
// address, which the App Router does not expose. With WEB_CONCURRENCY > 1 this process becomes
// the primary of that many workers (node:cluster), each serving as the single process does.
// Either way it also starts the webhook dispatcher as a process of its own (see dispatcher()).
import { type ChildProcess, spawn } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import http from "node:http";
import type { Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { RateLimiterClusterMaster } from "rate-limiter-flexible";
import { keepEngineDate } from "./lib/engine-date";
import { type Env, env } from "./lib/env";
import { watchEventLoop } from "./lib/event-loop";
import { log } from "./lib/log";
import { CLIENT_IP_HEADER, clientAddress, FORWARDED_METHOD_HEADER } from "./lib/api/client";
import { SERVER_HEAP_FLAG, scriptArgs } from "./lib/server-command";
import { NUDGE_MESSAGE, setNudge } from "./lib/webhooks/nudge";
import { isShareMessage } from "./lib/worker-share";

const root = import.meta.dirname;

/** Methods the route handlers serve; any other is brought to them as OPTIONS, marked. */
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Longer request targets are refused with 414 before Next.js parses them. */
const MAX_URL_BYTES = 8 * 1024;
/** Node's limit on the request line and headers together; over it Node gives up on parsing. */
const MAX_HEADER_BYTES = 32 * 1024;
/** How often Node looks for requests past REQUEST_TIMEOUT_MS (its default, 30 s, lets one run on that much longer). */
const TIMEOUT_CHECK_MS = 1000;
/** A worker gives open connections this long to finish after SIGTERM, then exits anyway. */
const DRAIN_MS = 5_000;
/** The primary's deadline for all workers to have exited after SIGTERM; then it kills them. */
const SHUTDOWN_DEADLINE_MS = DRAIN_MS + 3_000;
/** A worker that dies is replaced after this, doubling while replacements keep dying. */
const RESTART_DELAY_MS = 250;
const RESTART_DELAY_MAX_MS = 10_000;
/** A worker that served this long before dying resets the back-off. */
const STEADY_MS = 30_000;
/**
 * The webhook dispatcher's niceness: when requests keep every core busy, the kernel gives it a
 * tenth of a serving process's share, so sending waits and requests do not; with a core to
 * spare it runs there at full speed.
 */
const DISPATCHER_NICENESS = 10;

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

/**
 * Sends a response's headers with its first chunk of body, in one write to the socket. Next.js
 * flushes the headers on their own (flushHeaders) and writes the first chunk right after, in the
 * same tick: two writes, each a system call that wakes the client. Measured under the
 * benchmark's varied load, the headers' write alone was 5% of the server's CPU. With the socket
 * corked until the tick ends (as Node corks a response's own writes), both leave together, at
 * the moment the chunk would have left anyway.
 */
function headersWithFirstChunk(res: http.ServerResponse): void {
  const flushHeaders = res.flushHeaders.bind(res);
  res.flushHeaders = () => {
    const socket = res.socket;
    if (socket && !socket.writableCorked) {
      socket.cork();
      process.nextTick(() => socket.uncork());
    }
    flushHeaders();
  };
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

/** Serves HTTP through Next.js: the whole server with one process, or one worker of several. */
async function serve(config: Env, dispatcher?: Dispatcher): Promise<void> {
  // Before Next.js loads, so its instrumentation hook finds a dispatcher and starts none itself.
  if (dispatcher) setNudge(dispatcher.send);
  else if (cluster.isWorker && process.env[DISPATCHER_ENV]) setNudge((message) => process.send?.(message));
  // Before Next.js loads and replaces the global Date (lib/engine-date.ts).
  keepEngineDate();
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname: config.HOSTNAME, port: config.PORT });
  const handle = app.getRequestHandler();
  await app.prepare();

  // A request that has not fully arrived in REQUEST_TIMEOUT_MS is dropped (onClientError); the
  // headers get the same time. Those limits run while a request arrives; between requests, a
  // connection kept alive waits KEEP_ALIVE_TIMEOUT_MS.
  const limits = {
    maxHeaderSize: MAX_HEADER_BYTES,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    headersTimeout: config.REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
  };
  const server = http.createServer(limits, (req, res) => {
    // Never believe a client that names its own address or method: only this server sets them.
    delete req.headers[CLIENT_IP_HEADER];
    delete req.headers[FORWARDED_METHOD_HEADER];
    req.headers[CLIENT_IP_HEADER] = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], config.TRUST_PROXY);
    if ((req.url ?? "").startsWith("/api/") && !prepareApiRequest(req, res)) return;
    headersWithFirstChunk(res);
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`request failed before any route: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) send(res, 500, "internal_error", "Something went wrong on our side.");
      else res.destroy();
    });
  });
  server.on("clientError", onClientError);
  // A port already taken: say so and end. Next.js's handler of uncaught exceptions would keep
  // the process running without listening, and its dispatcher with it. Only until it listens:
  // later errors are left as they were.
  const cannotListen = (error: Error) => {
    process.stderr.write(`The server could not listen on ${config.HOSTNAME}:${config.PORT}: ${error.message}\n`);
    dispatcher?.stop();
    process.exit(1);
  };
  server.once("error", cannotListen);
  const unwatch = watchEventLoop(config.EVENT_LOOP_WARN_MS);
  server.listen(config.PORT, config.HOSTNAME, () => {
    server.off("error", cannotListen);
    // A worker's primary says it once for all of them.
    if (cluster.isPrimary) process.stderr.write(`Listening on ${listeningOn(config)}\n`);
  });

  // Finish the requests under way, then exit; the instrumentation hook closes the database
  // pool alongside. Connections a client keeps alive would hold the process open, so idle ones
  // are closed now and the rest get DRAIN_MS. Once: a worker hears Ctrl-C from the terminal
  // and SIGTERM from its primary, and a second server.close() would exit at once.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    unwatch();
    dispatcher?.stop();
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), DRAIN_MS).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

function listeningOn(config: Env): string {
  return `http://${config.HOSTNAME}:${config.PORT} (${path.relative(process.cwd(), root) || "."})`;
}

/**
 * The primary of WEB_CONCURRENCY workers: it never loads Next.js. Workers share the listening
 * socket (the primary hands connections out in turn), so one that dies takes only its own
 * connections with it; the primary starts another. It also keeps the rate-limit counters when
 * they live in memory, so the workers count together, and passes on to the others what one
 * worker found for them all (lib/worker-share.ts).
 */
function supervise(config: Env, dispatcher?: Dispatcher): void {
  new RateLimiterClusterMaster();
  // A worker's nudge goes on to the dispatcher.
  if (dispatcher) cluster.on("message", (_worker, message) => message === NUDGE_MESSAGE && dispatcher.send(message));
  const workers = new Map<Worker, number>();
  cluster.on("message", (from, message) => {
    if (!isShareMessage(message)) return;
    for (const worker of workers.keys()) if (worker !== from && worker.isConnected()) worker.send(message, undefined, () => {});
  });
  let listening = 0;
  let failures = 0;
  let stopping = false;

  const fork = () => workers.set(cluster.fork(), Date.now());

  const shutdown = (code: number) => {
    if (stopping) return;
    stopping = true;
    dispatcher?.stop();
    if (workers.size === 0) process.exit(code);
    for (const worker of workers.keys()) worker.process.kill("SIGTERM");
    setTimeout(() => {
      const pids = [...workers.keys()].map((worker) => worker.process.pid);
      log("warn", "Workers still running at the shutdown deadline; killing them", { pids });
      for (const worker of workers.keys()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    cluster.on("exit", () => {
      if (workers.size === 0) process.exit(code);
    });
  };

  cluster.on("listening", () => {
    listening++;
    if (listening === config.WEB_CONCURRENCY) process.stderr.write(`Listening on ${listeningOn(config)} with ${listening} workers\n`);
  });

  cluster.on("exit", (worker, code, signal) => {
    const startedAt = workers.get(worker) ?? Date.now();
    workers.delete(worker);
    if (stopping) return;
    const pid = worker.process.pid;
    if (listening === 0) {
      // Not one worker has started: the single process would have exited here, and so do we.
      log("error", "A worker exited before the server could start; stopping", { pid, code, signal });
      shutdown(1);
      return;
    }
    failures = Date.now() - startedAt >= STEADY_MS ? 0 : failures + 1;
    const restartInMs = Math.min(RESTART_DELAY_MS * 2 ** failures, RESTART_DELAY_MAX_MS);
    log("warn", "A worker exited unexpectedly; starting another", { pid, code, signal, restartInMs });
    setTimeout(() => {
      if (!stopping) fork();
    }, restartInMs);
  });

  process.once("SIGTERM", () => shutdown(0));
  process.once("SIGINT", () => shutdown(0));
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
}

/** Set for the workers when their primary runs a dispatcher: they nudge it through the primary. */
const DISPATCHER_ENV = "FEEDBACK_WEBHOOK_DISPATCHER";

interface Dispatcher {
  send(message: string): void;
  stop(): void;
}

/**
 * The webhook dispatcher: `feedback webhooks deliver` as a child process with an IPC channel,
 * at a lower CPU priority, started again when it dies (with the workers' back-off). Sending
 * never shares a process with requests: in the server itself, at saturation, the dispatcher
 * took 18-23% of the PUT's throughput (bench/, 2026-11-22). It ends with this process: on
 * SIGTERM, and by itself when the channel closes (this process died). None when
 * WEBHOOK_DISPATCH=false, and none on Vercel, where no process outlives a request.
 */
function dispatcher(config: Env): Dispatcher | undefined {
  if (!config.WEBHOOK_DISPATCH || config.VERCEL) return undefined;
  // A server profiled with --cpu-prof (the bench's --cpu-prof) profiles its dispatcher too.
  const profiling = process.execArgv.filter((arg) => arg.startsWith("--cpu-prof"));
  const args = [SERVER_HEAP_FLAG, ...profiling, ...scriptArgs(path.join(root, "cli", "feedback.ts")), "webhooks", "deliver"];
  let child: ChildProcess | undefined;
  let stopping = false;
  let failures = 0;
  const start = () => {
    const startedAt = Date.now();
    const started = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "ignore", "inherit", "ipc"] });
    child = started;
    started.on("error", (error) => log("error", "The webhook dispatcher could not start", { reason: error.message }));
    if (started.pid) {
      try {
        os.setPriority(started.pid, DISPATCHER_NICENESS);
      } catch (error) {
        log("warn", "Could not lower the webhook dispatcher's CPU priority", { reason: (error as Error).message });
      }
      // Logged once its priority is set: until then the process runs at this one's.
      log("info", "The webhook dispatcher started", { pid: started.pid });
    }
    started.on("exit", (code, signal) => {
      if (child === started) child = undefined;
      if (stopping) return;
      failures = Date.now() - startedAt >= STEADY_MS ? 0 : failures + 1;
      const restartInMs = Math.min(RESTART_DELAY_MS * 2 ** failures, RESTART_DELAY_MAX_MS);
      log("warn", "The webhook dispatcher exited unexpectedly; starting another", { pid: started.pid, code, signal, restartInMs });
      setTimeout(() => {
        if (!stopping) start();
      }, restartInMs).unref();
    });
  };
  start();
  process.env[DISPATCHER_ENV] = "1";
  return {
    // A nudge lost while the dispatcher restarts is made up by its first pass.
    send: (message) => {
      if (child?.connected) child.send(message, () => {});
    },
    stop: () => {
      stopping = true;
      child?.kill("SIGTERM");
    },
  };
}

async function main(): Promise<void> {
  const config = env();
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) supervise(config, dispatcher(config));
  else if (cluster.isWorker) await serve(config);
  else await serve(config, dispatcher(config));
}

main().catch((error: unknown) => {
  process.stderr.write(`The server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
