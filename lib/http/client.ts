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
      detail: problem.detail ?? `The request failed with status ${response.status}.`,
      errors: problem.errors,
    },
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
