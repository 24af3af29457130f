import { ZodError } from "zod";
import { ApiError, type FieldError } from "./errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
  requestId?: string;
  [extension: string]: unknown;
}

/** Problem types resolve to the error reference in the API docs. */
export function problemType(code: string): string {
  return `/docs/api#error-${code}`;
}

/** The one place that renders an RFC 9457 problem response. */
export function problemResponse(
  error: ApiError,
  options: { requestId?: string; instance?: string; headers?: HeadersInit } = {},
): Response {
  const body: ProblemBody = {
    ...error.extensions,
    type: problemType(error.code),
    title: error.title,
    status: error.status,
    detail: error.detail,
    ...(options.instance ? { instance: options.instance } : {}),
    ...(error.errors ? { errors: error.errors } : {}),
    ...(options.requestId ? { requestId: options.requestId } : {}),
  };
  const headers = new Headers(options.headers);
  new Headers(error.headers).forEach((value, key) => headers.set(key, value));
  headers.set("Content-Type", PROBLEM_CONTENT_TYPE);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

/** Zod issues → `errors[]` with JSON-path-like paths (`[3].phone`, `fields[0].name`). */
export function zodFieldErrors(error: ZodError, prefix: (string | number)[] = []): FieldError[] {
  return error.issues.map((issue) => ({
    path: formatPath([...prefix, ...(issue.path as (string | number)[])]),
    code: issue.code,
    // A record's bad key says why in its own issues ("Invalid key in record" alone does not).
    message: issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message,
  }));
}

export function formatPath(path: readonly (string | number | symbol)[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

// Network codes, postgres.js's own for a connection that went away mid-query (a server restart),
// Postgres's connection-exception (08…) and shutdown (57P01–57P03) states, and the database limits
// running out (db/postgres-client.ts: the client's DATABASE_TIMEOUT, a statement timeout's 57014,
// an idle transaction's 25P03): the request may well succeed when retried.
const DB_UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "DATABASE_TIMEOUT",
  "08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03", "53300", "57014", "25P03",
]);

/**
 * Whether the error, or one it wraps (`cause`, an AggregateError's errors), carries a code `matches`
 * accepts: a Postgres SQLSTATE on either driver, a network or a driver code.
 */
export function hasErrorCode(error: unknown, matches: (code: string) => boolean): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && matches(code)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => hasErrorCode(inner, matches))) return true;
  }
  return false;
}

/** A unique-index violation (`23505`). */
export function isUniqueViolation(error: unknown): boolean {
  return hasErrorCode(error, (code) => code === "23505");
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return hasErrorCode(error, (code) => DB_UNAVAILABLE_CODES.has(code));
}

/** Maps anything thrown in a route to an ApiError; unknown errors become a 500 that leaks nothing. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) {
    return new ApiError("validation_failed", "The request did not pass validation.", { errors: zodFieldErrors(error) });
  }
  if (isDatabaseUnavailable(error)) {
    return new ApiError("service_unavailable", "The database is temporarily unavailable. Retry shortly.", { headers: { "Retry-After": "5" } });
  }
  return new ApiError("internal_error", "Something went wrong on our side. The error was logged; retry or contact support with the request id.");
}
