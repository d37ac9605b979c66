import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { assertSameOrigin, authenticate, authenticateRead, type Principal } from "../auth/authenticate";
import { type KeyCheck, withKeyCheck } from "../auth/key-check";
import type { Scope } from "../auth/keys";
import { log, logError } from "../log";
import { readBody } from "./body";
import type { Contract } from "./define-operation";
import { ApiError, type ErrorDetail } from "./errors";
import { listKeysOf, queryObject } from "./query";
import { isUnavailable } from "../db-errors";
import { clientIpOf, methodOf } from "./client";
import { takeToken } from "./rate-limit";
import { logged, noteKey } from "./request-log";
import { contentTag, matchesNoneMatch } from "./conditional";
import { API_HEADERS, errorResponse, json, jsonText, linkHeader, type Pagination } from "./responses";
import { assertStorableText } from "./text";

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

/** A page of a cursor list: its items and the cursor of the next page, null on the last. */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

type Result = { data: unknown; etag?: string } | ListResult<unknown> | CursorPage<unknown>;

type Parsed<C, K extends "query" | "body" | "params"> = C extends { [k in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

interface Input<C extends Contract> {
  query: Parsed<C, "query">;
  body: Parsed<C, "body">;
  params: Parsed<C, "params">;
  principal: Principal;
  requestId: string;
  url: URL;
  headers: Headers;
}

/** What an operation's handler returns: its record, or a page of them when it declares a list. */
type Output<C extends Contract> = C extends { status: 204 }
  ? { data: null }
  : C extends { record: infer R extends z.ZodType }
    ? C extends { list: true }
      ? ListResult<z.output<R>>
      : C extends { list: "cursor" }
        ? CursorPage<z.output<R>>
        : { data: z.output<R>; etag?: string }
    : Result;

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
  assertStorableText(value, schema instanceof z.ZodObject ? shapeKeys(schema) : undefined, where);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = zodDetails(result.error);
  const fields = [...new Set(details.map((d) => d.field))].join(", ");
  throw new ApiError("invalid_request", `Invalid ${where}: ${fields}.`, { details });
}

function shapeKeys(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** Seconds a client should wait when the database is unavailable. */
const UNAVAILABLE_RETRY_AFTER = "2";

export function toErrorResponse(error: unknown, requestId: string, method: string, path: string): Response {
  if (error instanceof ApiError) return errorResponse(error, requestId);
  if (isUnavailable(error)) {
    // Expected while the database is away, and once per request: one line, no stack.
    log("warn", `[${requestId}] ${method} ${path}: the database is unavailable (${error instanceof Error ? error.message : String(error)})`);
    return errorResponse(
      new ApiError("service_unavailable", "The database is unavailable or busy; try again shortly.", {
        headers: { "Retry-After": UNAVAILABLE_RETRY_AFTER },
      }),
      requestId,
    );
  }
  // Prisma's "record to update/delete not found": a row vanished between lookup and write.
  if ((error as { code?: unknown })?.code === "P2025") {
    return errorResponse(new ApiError("not_found", "The record no longer exists."), requestId);
  }
  logError(`${method} ${path} failed`, error, requestId);
  return errorResponse(new ApiError("internal_error", "Something went wrong on our side. Quote the request id if you report it."), requestId);
}

interface Admitted {
  principal: Principal;
  limitHeaders: Record<string, string>;
  /** A key remembered, not looked up: the request's reads must confirm it (lib/auth/key-check.ts). */
  check?: KeyCheck;
}

/** Throws a refusal of who is calling (401) with the caller's address's RateLimit headers. */
async function refuseCaller(req: Request, error: unknown): Promise<never> {
  if (!(error instanceof ApiError)) throw error;
  const limitHeaders = await takeToken({ kind: "address", ip: clientIpOf(req.headers) });
  throw error.withHeaders(limitHeaders);
}

/**
 * Who is calling, counted against the right rate limit: the key once authenticated, else the
 * client's address. A refusal (401 or 429) carries the RateLimit headers like any answer.
 * `confirmByReads`: the request only reads, and a key known to this process may be confirmed
 * by its reads (see current()).
 */
export async function admit(req: Request, confirmByReads = false): Promise<Admitted> {
  let admitted: Pick<Admitted, "principal" | "check">;
  try {
    admitted = confirmByReads ? await authenticateRead(req.headers) : { principal: await authenticate(req.headers) };
    noteKey(req, admitted.principal.keyId);
  } catch (error) {
    return refuseCaller(req, error);
  }
  return { ...admitted, limitHeaders: await takeToken({ kind: "key", id: admitted.principal.keyId }) };
}

/**
 * The caller as the database has it now: where the key was remembered and no read of the request
 * has seen it unchanged, it is looked up (throws 401 if it has been revoked or is gone), and the
 * request's answer waits for that.
 */
async function current(req: Request, admitted: Admitted): Promise<Principal> {
  if (!admitted.check || admitted.check.seen === "unchanged") return admitted.principal;
  try {
    admitted.principal = await authenticate(req.headers);
    admitted.check = undefined;
  } catch (error) {
    return refuseCaller(req, error);
  }
  return admitted.principal;
}

function assertScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw new ApiError("forbidden", `This API key lacks the "${scope}" scope.`);
}

/** Answers a request that gets no further than its caller's admission: 404, 405 and the like. */
export async function refuseAfterAdmission(req: Request, refusal: (method: string, path: string) => ApiError): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  const path = new URL(req.url).pathname;
  const method = methodOf(req);
  try {
    const { limitHeaders } = await admit(req);
    throw refusal(method, path).withHeaders(limitHeaders);
  } catch (error) {
    return toErrorResponse(error, requestId, method, path);
  }
}

export function withApi<C extends Contract>(contract: C, handler: (input: Input<C>) => Promise<Output<C>>): RouteFn {
  const queryKeys = shapeKeys(contract.query);
  const listKeys = contract.query ? listKeysOf(contract.query) : [];
  return async (req, ctx) => {
    const requestId = requestIdOf(req.headers);
    const url = new URL(req.url);
    let extraHeaders: Record<string, string> = {};
    try {
      const reading = req.method === "GET" || req.method === "HEAD";
      const admitted = await admit(req, reading);
      extraHeaders = admitted.limitHeaders;
      // A refusal is decided on the key as it stands, not as it was remembered.
      const principal = admitted.principal.scopes.includes(contract.scope) ? admitted.principal : await current(req, admitted);
      assertScope(principal, contract.scope);
      let result: Result;
      try {
        // Every change made with the session cookie, whatever its scope, must come from the dashboard itself.
        if (principal.via === "session" && !reading) assertSameOrigin(req.headers);

        const body = contract.body ? parse(contract.body, await readBody(req), "body") : undefined;
        const params = contract.params ? parse(contract.params, await ctx.params, "path") : undefined;
        const query = contract.query ? parse(contract.query, queryObject(url.searchParams, queryKeys, listKeys), "query") : undefined;
        const work = () => handler({ query, body, params, principal, requestId, url, headers: req.headers } as Input<C>) as Promise<Result>;
        result = await (admitted.check ? withKeyCheck(admitted.check, work) : work());
      } catch (error) {
        // Whatever went wrong, a key that no longer stands is the answer, as it would have been first.
        assertScope(await current(req, admitted), contract.scope);
        throw error;
      }
      assertScope(await current(req, admitted), contract.scope);
      if ("list" in result) {
        return json({ data: result.list, pagination: result.pagination }, 200, requestId, {
          ...extraHeaders,
          Link: linkHeader(url, result.pagination),
        });
      }
      if ("nextCursor" in result) {
        return json({ data: result.items, nextCursor: result.nextCursor }, 200, requestId, extraHeaders);
      }
      if (contract.status === 204) return jsonText(null, 204, requestId, extraHeaders);
      const text = JSON.stringify({ data: result.data });
      const etag = result.etag ?? (contract.etag ? contentTag(text) : undefined);
      if (etag === undefined) return jsonText(text, contract.status ?? 200, requestId, extraHeaders);
      if (contract.etag && matchesNoneMatch(req.headers.get("if-none-match"), etag)) {
        return new Response(null, { status: 304, headers: { ETag: etag, "X-Request-Id": requestId, ...API_HEADERS, ...extraHeaders } });
      }
      return jsonText(text, 200, requestId, { ...extraHeaders, ETag: etag });
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
  const refuse = (req: Request) =>
    refuseAfterAdmission(
      req,
      (method) => new ApiError("method_not_allowed", `${method} is not allowed here; use ${allow}.`, { headers: { Allow: allow } }),
    );
  // server.ts brings methods no route can export (TRACE, PROPFIND…) here as marked OPTIONS.
  const options: RouteFn = async (req) =>
    methodOf(req) !== "OPTIONS"
      ? refuse(req)
      : new Response(null, { status: 204, headers: { Allow: allow, "X-Request-Id": requestIdOf(req.headers), ...API_HEADERS } });
  const out = { OPTIONS: logged(options) } as Record<Method | "OPTIONS", RouteFn>;
  for (const method of METHODS) out[method] = logged(handlers[method] ?? (method === "HEAD" ? handlers.GET : undefined) ?? refuse);
  return out;
}
