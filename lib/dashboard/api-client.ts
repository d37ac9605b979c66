// The dashboard's one way to call the API: same-origin fetch with the session cookie, JSON in
// and out, and the API's error object thrown as it came.

import type { ErrorDetail } from "../api/errors";
import type { Pagination } from "../api/responses";

export interface ApiErrorBody {
  code: string;
  message: string;
  details?: ErrorDetail[];
  requestId?: string;
  /** On a 412 precondition_failed: the resource as it is now. */
  current?: unknown;
}

/** Thrown by apiFetch for every non-2xx answer; carries the API's error object untouched. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  /** The resource's current ETag, which a 412 sends so the client can try again against it. */
  readonly etag: string | null;

  constructor(status: number, body: ApiErrorBody, etag: string | null = null) {
    super(body.message);
    this.name = "ApiRequestError";
    this.status = status;
    this.body = body;
    this.etag = etag;
  }

  /** The message for one field, from the error's details. */
  detail(field: string): string | undefined {
    return this.body.details?.find((d) => d.field === field)?.message;
  }
}

export interface ListResponse<T> {
  data: T[];
  pagination: Pagination;
}

export interface ItemResponse<T> {
  data: T;
}

export type Params = Record<string, string | number | readonly string[] | undefined>;

export function apiPath(path: string, params: Params = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "") continue;
    if (Array.isArray(value)) {
      if (value.length) search.set(key, value.join(","));
    } else {
      search.set(key, String(value));
    }
  }
  const query = search.toString();
  return `/api/v1${path}${query ? `?${query}` : ""}`;
}

export interface ApiRequestInit {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** The version the change is based on; the API refuses it with 412 if that is no longer current. */
  ifMatch?: string;
}

/** A successful answer's body with its ETag, for a change made later against that version. */
export interface Tagged<T> {
  body: T;
  etag: string | null;
}

export async function apiRequest<T>(url: string, init: ApiRequestInit = {}): Promise<Tagged<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (init.ifMatch !== undefined) headers["If-Match"] = init.ifMatch;
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      credentials: "same-origin",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiRequestError(0, { code: "network_error", message: "The server could not be reached. Check your connection." });
  }
  const etag = response.headers.get("ETag");
  if (response.status === 204) return { body: undefined as T, etag };
  const body = (await response.json().catch(() => null)) as { error?: ApiErrorBody } | null;
  if (!response.ok) {
    const error = body?.error ?? { code: "internal_error", message: `The server answered ${response.status}.` };
    // The session ended (signed out elsewhere, expired, key revoked): back to the sign-in page.
    if (response.status === 401 && typeof window !== "undefined" && !url.startsWith("/api/session")) {
      window.location.assign("/login");
    }
    throw new ApiRequestError(response.status, error, etag);
  }
  return { body: body as T, etag };
}

export async function apiFetch<T>(url: string, init: ApiRequestInit = {}): Promise<T> {
  return (await apiRequest<T>(url, init)).body;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  return "Something went wrong. Try again.";
}
