// The one error type handlers throw, and the one map from its code to an HTTP status.

export const errorStatus = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  precondition_failed: 412,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_header_fields_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetail {
  field: string;
  message: string;
}

interface ApiErrorOptions {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  current?: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  /** With precondition_failed: the record as it is now, so the client can reconcile. */
  readonly current?: unknown;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
    this.current = options.current;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  /** The same error with more headers (those it has already win). */
  withHeaders(headers: Record<string, string>): ApiError {
    return new ApiError(this.code, this.message, { details: this.details, current: this.current, headers: { ...headers, ...this.headers } });
  }

  static invalid(field: string, message: string): ApiError {
    return new ApiError("invalid_request", `Invalid ${field}: ${message}`, { details: [{ field, message }] });
  }
}
