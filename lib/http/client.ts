// Browser-side JSON calls to our own routes, with problem+json errors decoded in one place.
import type { FieldError } from "./errors";

export interface ClientProblem {
  status: number;
  title: string;
  detail: string;
  errors?: FieldError[];
}

export type JsonResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; problem: ClientProblem };

export async function requestJson<T = unknown>(
  url: string,
  options: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<JsonResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? "GET",
      headers: options.body === undefined ? undefined : { "Content-Type": "application/json" },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, problem: { status: 0, title: "Network error", detail: "Could not reach Sendstream. Check your connection and try again." } };
  }
  const text = await response.text();
  const parsed: unknown = text ? safeParse(text) : undefined;
  if (response.ok) return { ok: true, status: response.status, data: parsed as T };
  const problem = (parsed && typeof parsed === "object" ? parsed : {}) as Partial<ClientProblem>;
  return {
    ok: false,
    status: response.status,
    problem: {
      status: response.status,
      title: problem.title ?? "Request failed",
      detail: problem.detail ?? fallbackDetail(response.status),
      errors: problem.errors,
    },
  };
}

/** What to tell a person when the server sent no problem document (a proxy's error page, a timeout): what happened, not a status code. */
function fallbackDetail(status: number): string {
  if (status === 413) return "That was too large for Sendstream to accept.";
  if (status === 429) return "Too many requests at once. Wait a moment and try again.";
  if (status >= 500) return "Sendstream could not finish this just now. Reload the page to see what was saved, then try again.";
  return "Sendstream did not accept this request. Reload the page and try again.";
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type PollResult<T> = { changed: false } | { changed: true; data: T; etag: string | null } | { changed: false; problem: ClientProblem };

/**
 * A GET that sends `If-None-Match` with the ETag last seen: 304 is `{ changed: false }`. The
 * browser's own cache is bypassed so the 304 reaches us instead of a cached copy.
 */
export async function pollJson<T>(url: string, etag: string | null, signal?: AbortSignal): Promise<PollResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, { headers: etag ? { "If-None-Match": etag } : undefined, cache: "no-store", credentials: "same-origin", signal });
  } catch {
    return { changed: false, problem: { status: 0, title: "Network error", detail: "Could not reach Sendstream. Check your connection and try again." } };
  }
  if (response.status === 304) return { changed: false };
  const text = await response.text();
  const parsed: unknown = text ? safeParse(text) : undefined;
  if (response.ok) return { changed: true, data: parsed as T, etag: response.headers.get("ETag") };
  const problem = (parsed && typeof parsed === "object" ? parsed : {}) as Partial<ClientProblem>;
  return {
    changed: false,
    problem: { status: response.status, title: problem.title ?? "Request failed", detail: problem.detail ?? fallbackDetail(response.status), errors: problem.errors },
  };
}
