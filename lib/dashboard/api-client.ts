// The dashboard's one way to call the API: same-origin fetch with the session cookie, JSON in
// and out, and the API's error object thrown as it came.

import type { ErrorDetail } from "../api/errors";
import type { Pagination } from "../api/responses";

export interface ApiErrorBody {
  code: string;
  message: string;
  details?: ErrorDetail[];
  requestId?: string;
}

/** Thrown by apiFetch for every non-2xx answer; carries the API's error object untouched. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = "ApiRequestError";
    this.status = status;
    this.body = body;
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

export async function apiFetch<T>(url: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiRequestError(0, { code: "network_error", message: "The server could not be reached. Check your connection." });
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as { error?: ApiErrorBody } | null;
  if (!response.ok) {
    const error = body?.error ?? { code: "internal_error", message: `The server answered ${response.status}.` };
    // The session ended (signed out elsewhere, expired, key revoked): back to the sign-in page.
    if (response.status === 401 && typeof window !== "undefined" && !url.startsWith("/api/session")) {
      window.location.assign("/login");
    }
    throw new ApiRequestError(response.status, error);
  }
  return body as T;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  return "Something went wrong. Try again.";
}
