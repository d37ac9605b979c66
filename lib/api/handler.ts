import { randomUUID } from "node:crypto";
import { z } from "zod";
import { assertSameOrigin, authenticate, type Principal } from "../auth/authenticate";
import type { Scope } from "../auth/keys";
import { logError } from "../log";
import { readBody } from "./body";
import { ApiError, type ErrorDetail } from "./errors";
import { queryObject } from "./query";
import { takeToken } from "./rate-limit";
import { logged, noteKey } from "./request-log";
import { errorResponse, json, linkHeader, type Pagination } from "./responses";

// The wrapper that owns every /api/v1 request: request id, authentication (before anything
// else), scope, rate limit, parsing with zod, and turning any thrown error into the one
// error shape. Handlers receive parsed input and return data.

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type RouteFn = (req: Request, ctx: RouteContext) => Promise<Response>;

export interface ListResult<T> {
  list: T[];
  pagination: Pagination;
}

type Result = { data: unknown } | ListResult<unknown>;

interface Input<Q, B, P> {
  query: Q;
  body: B;
  params: P;
  principal: Principal;
  requestId: string;
  url: URL;
}

interface Options<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType> {
  scope: Scope;
  query?: Q;
  /** Query keys that may be repeated and comma-separated. */
  lists?: readonly string[];
  body?: B;
  params?: P;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;

export function requestIdOf(headers: Headers): string {
  const incoming = headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join(".") || "body",
    message: issue.message,
  }));
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = zodDetails(result.error);
  const fields = [...new Set(details.map((d) => d.field))].join(", ");
  throw new ApiError("invalid_request", `Invalid ${where}: ${fields}.`, { details });
}

function shapeKeys(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

export function toErrorResponse(error: unknown, requestId: string, method: string, path: string): Response {
  if (error instanceof ApiError) return errorResponse(error, requestId);
  // Prisma's "record to update/delete not found": a row vanished between lookup and write.
  if ((error as { code?: unknown })?.code === "P2025") {
    return errorResponse(new ApiError("not_found", "The record no longer exists."), requestId);
  }
  logError(`${method} ${path} failed`, error, requestId);
  return errorResponse(new ApiError("internal_error", "Something went wrong on our side. Quote the request id if you report it."), requestId);
}

export function withApi<Q extends z.ZodType = z.ZodUndefined, B extends z.ZodType = z.ZodUndefined, P extends z.ZodType = z.ZodUndefined>(
  options: Options<Q, B, P>,
  handler: (input: Input<z.output<Q>, z.output<B>, z.output<P>>) => Promise<Result>,
): RouteFn {
  const queryKeys = shapeKeys(options.query);
  return async (req, ctx) => {
    const requestId = requestIdOf(req.headers);
    const url = new URL(req.url);
    let extraHeaders: Record<string, string> = {};
    try {
      const principal = await authenticate(req.headers);
      noteKey(req, principal.keyId);
      extraHeaders = takeToken(principal.keyId);
      if (!principal.scopes.includes(options.scope)) {
        throw new ApiError("forbidden", `This API key lacks the "${options.scope}" scope.`);
      }
      if (options.scope === "write" && principal.via === "session") assertSameOrigin(req.headers, url);

      const body = options.body ? parse(options.body, await readBody(req), "body") : undefined;
      const params = options.params ? parse(options.params, await ctx.params, "path") : undefined;
      const query = options.query
        ? parse(options.query, queryObject(url.searchParams, queryKeys, options.lists ?? []), "query")
        : undefined;

      const result = await handler({ query, body, params, principal, requestId, url } as Input<
        z.output<Q>,
        z.output<B>,
        z.output<P>
      >);
      if ("list" in result) {
        return json({ data: result.list, pagination: result.pagination }, 200, requestId, {
          ...extraHeaders,
          Link: linkHeader(url, result.pagination),
        });
      }
      return json(result, 200, requestId, extraHeaders);
    } catch (error) {
      const response = toErrorResponse(error, requestId, req.method, url.pathname);
      for (const [name, value] of Object.entries(extraHeaders)) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
      return response;
    }
  };
}

/**
 * The exports of a route file: the given methods, and for every other method a handler that
 * authenticates and then answers 405 with Allow.
 */
export function route(handlers: Partial<Record<Method, RouteFn>>): Record<Method | "OPTIONS", RouteFn> {
  const allowed = Object.keys(handlers) as Method[];
  if (allowed.includes("GET") && !allowed.includes("HEAD")) allowed.push("HEAD");
  const allow = [...allowed, "OPTIONS"].join(", ");
  const refuse: RouteFn = async (req) => {
    const requestId = requestIdOf(req.headers);
    try {
      noteKey(req, (await authenticate(req.headers)).keyId);
      throw new ApiError("method_not_allowed", `${req.method} is not allowed here; use ${allow}.`, {
        headers: { Allow: allow },
      });
    } catch (error) {
      return toErrorResponse(error, requestId, req.method, new URL(req.url).pathname);
    }
  };
  const options: RouteFn = async (req) =>
    new Response(null, { status: 204, headers: { Allow: allow, "X-Request-Id": requestIdOf(req.headers) } });
  const out = { OPTIONS: logged(options) } as Record<Method | "OPTIONS", RouteFn>;
  for (const method of METHODS) out[method] = logged(handlers[method] ?? (method === "HEAD" ? handlers.GET : undefined) ?? refuse);
  return out;
}
