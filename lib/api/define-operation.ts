import type { z } from "zod";
import type { Scope } from "../auth/keys";

// One declaration per endpoint: the wrapper (lib/api/handler.ts) reads its contract to admit
// and parse a request, and the OpenAPI builder (lib/openapi.ts) reads the whole of it, so an
// endpoint cannot drift from its documentation.

/** What the wrapper needs to admit and parse a request. */
export interface Contract {
  scope: Scope;
  /** Keys whose schema takes an array may be repeated and comma-separated. */
  query?: z.ZodObject;
  body?: z.ZodType;
  params?: z.ZodObject;
  /** A single resource: its answer carries a strong ETag, and If-None-Match naming it gets 304. */
  etag?: true;
  /** The success status when not 200: 201 made a resource, 202 queued work, 204 answers no body. */
  status?: 201 | 202 | 204;
}

/** An endpoint of /api/v1: its contract, what it answers, and how the document presents it. */
export interface Operation extends Contract {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Under /api/v1, with OpenAPI's `{name}` for a path parameter. */
  path: string;
  summary: string;
  description?: string;
  /**
   * The record it answers with: `{data: record}`; with `list: true`, `{data: [record], pagination}`;
   * with `list: "cursor"` (a list that grows at one end), `{data: [record], nextCursor}`;
   * with `status: 204`, nothing (the record is then the resource the operation acts on).
   */
  record: z.ZodType;
  list?: true | "cursor";
  /** A write that honours If-Match: a version no longer current gets 412 and changes nothing. */
  ifMatch?: true;
}

/** Keeps the literal types (method, `list: true`, the schemas), so handlers are typed by them. */
export function defineOperation<const O extends Operation>(operation: O): O {
  return operation;
}
