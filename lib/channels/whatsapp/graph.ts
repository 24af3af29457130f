// Low-level WhatsApp Cloud API (Graph API) access: one request function and one error type.
import { describeNetworkFailure } from "./network-failure";

export interface GraphConfig {
  /** e.g. https://graph.facebook.com, or a local fake in tests (WHATSAPP_GRAPH_URL). */
  baseUrl: string;
  /** e.g. v23.0 (WHATSAPP_GRAPH_VERSION). */
  version: string;
  accessToken: string;
  timeoutMs?: number;
}

export function graphConfigFromEnv(accessToken: string, timeoutMs?: number): GraphConfig {
  return {
    baseUrl: process.env.WHATSAPP_GRAPH_URL || "https://graph.facebook.com",
    version: process.env.WHATSAPP_GRAPH_VERSION || "v23.0",
    accessToken,
    timeoutMs,
  };
}

// Next.js can load this module in several module graphs per process, so `instanceof` against one
// graph's class misses errors thrown by another's; a process-wide brand recognises them all.
const GRAPH_API_ERROR = Symbol.for("sendstream.GraphApiError");

/** A Graph API failure: an `{error:{…}}` body, a non-JSON HTTP error, a timeout or a network error. */
export class GraphApiError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[GRAPH_API_ERROR] === true;
  }
  readonly [GRAPH_API_ERROR] = true;
  readonly httpStatus: number | null;
  /** Meta's error code (130429, 131026, …); null for timeouts, network errors and non-Graph bodies. */
  readonly code: number | null;
  readonly subcode: number | null;
  readonly type: string | null;
  readonly details: string | null;
  readonly fbtraceId: string | null;
  readonly kind: "graph" | "http" | "timeout" | "network";

  constructor(init: {
    message: string;
    kind: GraphApiError["kind"];
    httpStatus?: number | null;
    code?: number | null;
    subcode?: number | null;
    type?: string | null;
    details?: string | null;
    fbtraceId?: string | null;
  }) {
    super(init.message);
    this.name = "GraphApiError";
    this.kind = init.kind;
    this.httpStatus = init.httpStatus ?? null;
    this.code = init.code ?? null;
    this.subcode = init.subcode ?? null;
    this.type = init.type ?? null;
    this.details = init.details ?? null;
    this.fbtraceId = init.fbtraceId ?? null;
  }
}

/**
 * Calls `{baseUrl}/{version}/{path}` with the bearer token and returns the parsed JSON body.
 * `path` may also be an absolute URL (Graph paging `next` links).
 */
export async function graphRequest<T>(
  config: GraphConfig,
  method: "GET" | "POST" | "DELETE",
  path: string,
  options: { body?: unknown; query?: Record<string, string | number | undefined> } = {},
): Promise<T> {
  const url = /^https?:\/\//.test(path)
    ? new URL(path)
    : new URL(`${config.baseUrl.replace(/\/+$/, "")}/${config.version}/${path.replace(/^\/+/, "")}`);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${config.accessToken}`,
        ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(config.timeoutMs ?? 15_000),
    });
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
    throw new GraphApiError({
      kind: timedOut ? "timeout" : "network",
      message: timedOut ? "The WhatsApp Cloud API did not answer in time." : "Could not reach the WhatsApp Cloud API.",
      details: timedOut ? `No answer from ${url.host} within ${Math.round((config.timeoutMs ?? 15_000) / 1000)} s.` : describeNetworkFailure(error, url),
    });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = undefined;
  }
  const graphError = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (graphError && typeof graphError === "object") {
    const errorData = graphError.error_data as { details?: string } | undefined;
    throw new GraphApiError({
      kind: "graph",
      httpStatus: response.status,
      message: String(graphError.message ?? `Graph API error ${response.status}`),
      code: typeof graphError.code === "number" ? graphError.code : Number(graphError.code) || null,
      subcode: typeof graphError.error_subcode === "number" ? graphError.error_subcode : null,
      type: typeof graphError.type === "string" ? graphError.type : null,
      details: errorData?.details ?? (typeof graphError.error_user_msg === "string" ? graphError.error_user_msg : null),
      fbtraceId: typeof graphError.fbtrace_id === "string" ? graphError.fbtrace_id : null,
    });
  }
  if (!response.ok || body === undefined) {
    throw new GraphApiError({
      kind: "http",
      httpStatus: response.status,
      message: `The WhatsApp Cloud API answered HTTP ${response.status}${body === undefined ? " with a body that is not JSON" : ""}.`,
    });
  }
  return body as T;
}
