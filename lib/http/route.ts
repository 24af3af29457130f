import { randomUUID } from "node:crypto";
import { after } from "next/server";
import { getDb } from "@/db";
import { authenticateApiKey, recordApiKeyUse } from "@/lib/api-keys/authenticate";
import { ApiError } from "./errors";
import { originFromHeaders } from "./origin";
import { problemResponse, toApiError } from "./problem";

type Params = Record<string, string | string[] | undefined>;

/** The shape Next.js type-checks every exported route handler against. */
export type NextRouteHandler = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

export interface BaseContext<P> {
  request: Request;
  params: P;
  requestId: string;
}

export interface SessionContext<P> extends BaseContext<P> {
  user: { id: string; email: string; name: string; workspaceId: string };
  workspaceId: string;
}

export interface ApiKeyContext<P> extends BaseContext<P> {
  /** The key the request authenticated with (never the key itself). */
  apiKey: { id: string; name: string };
  workspaceId: string;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Runs a handler with a request id and the one error → problem+json mapping. Every wrapped
 * response carries `X-Request-Id`; unknown errors are logged with it and answered as a bare 500.
 */
export async function runRoute(request: Request, handler: (requestId: string) => Promise<Response>): Promise<Response> {
  const requestId = request.headers.get("x-request-id")?.slice(0, 100) || randomUUID();
  let response: Response;
  try {
    response = await handler(requestId);
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status >= 500) {
      console.error(`[${requestId}] ${request.method} ${new URL(request.url).pathname} failed:`, error);
    }
    response = problemResponse(apiError, { requestId });
  }
  response.headers.set("X-Request-Id", requestId);
  return response;
}

/** A route anyone may call (health checks, webhooks with their own verification). */
export function withPublic<P extends Params = Params>(
  handler: (context: BaseContext<P>) => Promise<Response>,
): NextRouteHandler {
  return (request, context) =>
    runRoute(request, async (requestId) => handler({ request, params: (await context.params) as P, requestId }));
}

/**
 * A route for the signed-in web app. Mutations must come from our own origin (the session cookie
 * would otherwise ride along on a cross-site form post) and carry JSON when they have a body.
 */
export function withSession<P extends Params = Params>(
  handler: (context: SessionContext<P>) => Promise<Response>,
): NextRouteHandler {
  return (request, context) =>
    runRoute(request, async (requestId) => {
      if (UNSAFE_METHODS.has(request.method)) assertSameOrigin(request);
      const { getSessionUser } = await import("@/lib/auth/session");
      const user = await getSessionUser();
      if (!user) {
        throw new ApiError({
          status: 401,
          code: "unauthenticated",
          title: "Unauthenticated",
          detail: "Sign in to continue.",
        });
      }
      return handler({ request, params: (await context.params) as P, requestId, user, workspaceId: user.workspaceId });
    });
}

/**
 * A route for external systems, authenticated by an API key (`x-api-key` or `Authorization: Bearer`):
 * 401 / 400 per the API-key rules before the handler runs. After the response, the key's
 * "last used" time is recorded (throttled to one write per key per minute). The key is looked up
 * on every request: a request that authenticated before a delete committed may still finish, and
 * every request that starts after the delete has returned gets 401.
 */
export function withApiKey<P extends Params = Params>(
  handler: (context: ApiKeyContext<P>) => Promise<Response>,
): NextRouteHandler {
  return (request, context) =>
    runRoute(request, async (requestId) => {
      const db = await getDb();
      const key = await authenticateApiKey(db, request.headers);
      try {
        return await handler({
          request,
          params: (await context.params) as P,
          requestId,
          apiKey: { id: key.id, name: key.name },
          workspaceId: key.workspaceId,
        });
      } finally {
        runAfterResponse(requestId, "recording API key use", () => recordApiKeyUse(db, key));
      }
    });
}

/**
 * Runs `task` once the response has been sent (Next's `after()`); outside a request scope, as in
 * tests and scripts, starts it at once without waiting for it. Failures are logged, never thrown.
 */
export function runAfterResponse(requestId: string, what: string, task: () => Promise<void>): void {
  const run = () =>
    task().catch((error: unknown) => {
      console.error(`[${requestId}] ${what} failed:`, error);
    });
  try {
    after(run);
  } catch {
    void run();
  }
}

export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  const expected = allowedOrigins(request);
  const crossSite = fetchSite === "cross-site" || (origin !== null && !expected.has(origin));
  if (crossSite || (origin === null && fetchSite === null)) {
    throw new ApiError({
      status: 403,
      code: "cross_site_request",
      title: "Cross-site request refused",
      detail: "This endpoint only accepts requests from the Sendstream web app.",
    });
  }
  const hasBody = request.headers.get("content-length") !== "0" && request.headers.has("content-type");
  if (hasBody && !/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    throw new ApiError({
      status: 415,
      code: "unsupported_media_type",
      title: "Unsupported media type",
      detail: "Send the body as JSON with the header Content-Type: application/json.",
    });
  }
}

function allowedOrigins(request: Request): Set<string> {
  const origins = new Set<string>([new URL(request.url).origin]);
  const forwarded = originFromHeaders(request.headers, new URL(request.url).protocol.replace(":", ""));
  if (forwarded) origins.add(forwarded);
  if (process.env.APP_URL) origins.add(new URL(process.env.APP_URL).origin);
  return origins;
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** 405 for a method a route does not implement, with the `Allow` header RFC 9110 requires. */
export function methodNotAllowed(allow: string[]): NextRouteHandler {
  return (request) =>
    runRoute(request, async () => {
      throw new ApiError({
        status: 405,
        code: "method_not_allowed",
        title: "Method not allowed",
        detail: `${request.method} is not supported here. Allowed: ${allow.join(", ")}.`,
        headers: { Allow: allow.join(", ") },
      });
    });
}
