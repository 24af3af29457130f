export interface FieldError {
  /** Where the problem is, e.g. `phone`, `[3].phone`, `fields[1].name`. */
  path: string;
  code: string;
  message: string;
}

export interface ApiErrorInit {
  status: number;
  /** Stable, machine-readable slug; also the last segment of the problem `type`. */
  code: string;
  title: string;
  detail: string;
  errors?: FieldError[];
  headers?: HeadersInit;
  /** Extra problem members (RFC 9457 extensions). */
  extensions?: Record<string, unknown>;
}

/** Any error a route can throw to answer with a specific problem+json response. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors?: FieldError[];
  readonly headers?: HeadersInit;
  readonly extensions?: Record<string, unknown>;

  constructor(init: ApiErrorInit) {
    super(init.detail);
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.headers = init.headers;
    this.extensions = init.extensions;
  }
}

export const notFound = (detail = "The requested resource does not exist.") =>
  new ApiError({ status: 404, code: "not_found", title: "Not found", detail });

export const conflict = (detail: string, code = "conflict") => new ApiError({ status: 409, code, title: "Conflict", detail });

export const validationFailed = (errors: FieldError[], detail = "The request did not pass validation.") =>
  new ApiError({ status: 422, code: "validation_failed", title: "Validation failed", detail, errors });

export const badRequest = (detail: string, code = "bad_request") =>
  new ApiError({ status: 400, code, title: "Bad request", detail });
