import type { ApiError } from "./errors";

// Response helpers: every /api/v1 response is JSON with a charset and carries X-Request-Id.

export const JSON_TYPE = "application/json; charset=utf-8";

// Set here rather than in the proxy so that API requests never pay for a proxy run: answers
// are per key and per moment (no-store), and JSON is never to be sniffed into something else.
export const API_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

export function json(body: unknown, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": JSON_TYPE, "X-Request-Id": requestId, ...API_HEADERS, ...headers },
  });
}

export function errorResponse(error: ApiError, requestId: string): Response {
  const body = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details?.length ? { details: error.details } : {}),
      requestId,
    },
  };
  return json(body, error.status, requestId, error.headers);
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNextPage: boolean;
}

export function pagination(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNextPage: page < totalPages };
}

/** RFC 8288 Link header for a list, with every other query parameter kept as it was. */
export function linkHeader(url: URL, p: Pagination): string {
  const link = (page: number, rel: string) => {
    const target = new URL(url);
    target.searchParams.set("page", String(page));
    return `<${target.pathname}${target.search}>; rel="${rel}"`;
  };
  const links = [link(1, "first")];
  if (p.page > 1) links.push(link(Math.min(p.page - 1, Math.max(p.totalPages, 1)), "prev"));
  if (p.hasNextPage) links.push(link(p.page + 1, "next"));
  if (p.totalPages > 0) links.push(link(p.totalPages, "last"));
  return links.join(", ");
}
