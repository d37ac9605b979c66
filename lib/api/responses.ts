import type { ApiError } from "./errors";

// Response helpers: every /api/v1 response is JSON with a charset and carries X-Request-Id.

export const JSON_TYPE = "application/json; charset=utf-8";

// Set here rather than in the proxy so that API requests never pay for a proxy run: answers
// are per key and per moment (no-store), and JSON is never to be sniffed into something else.
export const API_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

export function json(body: unknown, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return jsonText(status === 204 ? null : JSON.stringify(body), status, requestId, headers);
}

/** The same, for a body already serialized (to tag it, for one). */
export function jsonText(text: string | null, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
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
      ...(error.current !== undefined ? { current: error.current } : {}),
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
  /** On lists whose search totals are bounded (lib/totals.ts): false when `total` is that bound. */
  totalIsExact?: boolean;
  /** On lists that take `cursor`: where the next page starts, or null on the last page. */
  nextCursor?: string | null;
}

/** What a list that can bound its total and take a cursor knows of its page. */
export interface ListPage {
  total: number;
  totalIsExact: boolean;
  hasNextPage: boolean;
  nextCursor: string | null;
}

export function pagination(page: number, limit: number, total: number, known?: ListPage): Pagination {
  const totalPages = Math.ceil(total / limit);
  if (!known) return { page, limit, total, totalPages, hasNextPage: page < totalPages };
  const { totalIsExact, hasNextPage, nextCursor } = known;
  return { page, limit, total, totalPages, hasNextPage, totalIsExact, nextCursor };
}

/**
 * RFC 8288 Link header for a list, with every other query parameter kept as it was. On a list
 * that gives cursors, `next` carries one beside the page number, so a client that follows it
 * pays the same for every page; a bounded total has no known last page.
 */
export function linkHeader(url: URL, p: Pagination): string {
  // The query's parameters copied for each link, its page and cursor set there: each change to
  // a URL's searchParams writes the whole URL again (21 µs a header of four links that way, 4-5
  // this way).
  const query = new URLSearchParams(url.search);
  const link = (rel: string, page: number, cursor?: string | null) => {
    const params = new URLSearchParams(query);
    params.set("page", String(page));
    if (cursor) params.set("cursor", cursor);
    else params.delete("cursor");
    return `<${url.pathname}?${params}>; rel="${rel}"`;
  };
  const links = [link("first", 1)];
  if (p.page > 1) links.push(link("prev", Math.min(p.page - 1, Math.max(p.totalPages, 1))));
  if (p.hasNextPage) links.push(link("next", p.page + 1, p.nextCursor));
  if (p.totalPages > 0 && p.totalIsExact !== false) links.push(link("last", p.totalPages));
  return links.join(", ");
}
