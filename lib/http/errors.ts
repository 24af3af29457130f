import { errorEntry, type ErrorCode, type ErrorCodeWithStatus } from "./error-catalog";

export type { ErrorCode } from "./error-catalog";

export interface FieldError {
  /** Where the problem is, e.g. `phone`, `[3].phone`, `fields[1].name`. */
  path: string;
  code: string;
  message: string;
}

export interface ApiErrorOptions {
  errors?: FieldError[];
  headers?: HeadersInit;
  /** Extra problem members (RFC 9457 extensions). */
  extensions?: Record<string, unknown>;
}

// Next.js can load this module in more than one module graph of one process (server start-up and
// the routes): an ApiError made by code of one graph (a campaign kind registered at start-up) is
// still an ApiError to `instanceof` in another, by this brand rather than by class identity.
const API_ERROR = Symbol.for("sendstream.api-error");

/**
 * Any error a route can throw to answer with a specific problem+json response. The code comes
 * from the error catalogue, which alone decides the status and the title; the detail says what
 * happened this time.
 */
export class ApiError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [API_ERROR]?: unknown })[API_ERROR] === true;
  }

  readonly [API_ERROR] = true;
  readonly status: number;
  readonly code: ErrorCode;
  readonly title: string;
  readonly detail: string;
  readonly errors?: FieldError[];
  readonly headers?: HeadersInit;
  readonly extensions?: Record<string, unknown>;

  constructor(code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
    super(detail);
    const entry = errorEntry(code);
    this.name = "ApiError";
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers;
    this.extensions = options.extensions;
  }

  /** The same error with more response headers (e.g. rate-limit headers on a refusal). */
  withHeaders(headers: HeadersInit): ApiError {
    const merged = new Headers(headers);
    new Headers(this.headers).forEach((value, key) => merged.set(key, value));
    return new ApiError(this.code, this.detail, { errors: this.errors, headers: merged, extensions: this.extensions });
  }
}

export const notFound = (detail = "The requested resource does not exist.") => new ApiError("not_found", detail);

export const conflict = (detail: string, code: ErrorCodeWithStatus<409>) => new ApiError(code, detail);

export const validationFailed = (errors: FieldError[], detail = "The request did not pass validation.") =>
  new ApiError("validation_failed", detail, { errors });

export const badRequest = (detail: string, code: ErrorCodeWithStatus<400> = "bad_request") => new ApiError(code, detail);
