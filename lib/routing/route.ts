import { createHash, randomUUID } from "node:crypto";
import { after } from "next/server";
import { getDb } from "@/db";
import { apiKeyUnauthorized, lastUsedIsStale, readPresentedApiKey, recordApiKeyUse } from "@/lib/api-keys/authenticate";
import { authenticateApiKeyRequest } from "@/lib/api-keys/failures";
import type { ApiKeyScope } from "@/lib/api-keys/schemas";
import { FULL_SCOPE, insufficientScope } from "@/lib/api-keys/scope";
import { describeError } from "@/lib/logging";
import type { MemberRole } from "@/db/schema";
import { ADMIN_ROLES } from "@/lib/members/roles";
import type { Actor } from "@/lib/workspaces";
import { ApiError } from "@/lib/http/errors";
import { originFromHeaders } from "@/lib/http/origin";
import { assertPathParams } from "@/lib/http/path-params";
import { problemResponse, toApiError } from "@/lib/http/problem";

type Params = Record<string, string | string[] | undefined>;

/** The shape Next.js type-checks every exported route handler against. */
export type NextRouteHandler = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

export interface BaseContext<P> {
  request: Request;
  params: P;
  requestId: string;
}

export interface WorkspaceContext<P> extends BaseContext<P> {
  workspaceId: string;
  actor: Actor;
  /** The signed-in user's role; null for an API key (which acts for the whole workspace). */
  role: MemberRole | null;
  /** The API key's scope; a session has full access. */
  scope: ApiKeyScope;
}

/**
 * Which credentials a route takes: `both` (every /api/v1 route: the web app and integrators
 * call the same tree), `key` (the trigger endpoint) or `session` (key management, sender
 * settings: a key can never manage keys).
 */
export type AcceptedCredentials = "both" | "key" | "session";

/** Options for a route only the signed-in web app may call (outside /api/v1). */
export const webAppOnly = { accept: "session" } as const satisfies { accept: AcceptedCredentials };

/** Options for a web-app route that manages the workspace (keys, sender, webhooks, alerts, members): owners and admins. */
export const adminsOnly = { accept: "session", roles: ADMIN_ROLES } as const satisfies { accept: AcceptedCredentials; roles: readonly MemberRole[] };

/**
 * Options for a REST write that only owners and admins may make (senders): the route takes both
 * credentials so its reads and writes share one path, but an API key acts for no one in particular
 * and is refused with 403 `admin_required`, as on the session-only admin routes.
 */
export const adminWrites = { roles: ADMIN_ROLES, refuseKeys: true } as const satisfies { roles: readonly MemberRole[]; refuseKeys: boolean };

/** Options for a web-app route for the workspace's owners only (their alerts). */
export const ownersOnly = { accept: "session", roles: ["owner"] } as const satisfies { accept: AcceptedCredentials; roles: readonly MemberRole[] };

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
      console.error(`[${requestId}] ${request.method} ${new URL(request.url).pathname} failed: ${describeError(error)}`);
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
    runRoute(request, async (requestId) => handler({ request, params: assertPathParams((await context.params) as P), requestId }));
}

/**
 * The one wrapper for workspace routes. An API key header present → key authentication (failures
 * counted per client address, see lib/api-keys/failures.ts; a trigger-only key gets 403 unless the
 * route takes `triggerKeys`): the cookie is ignored, there is no same-origin check (integrators are other origins by nature),
 * and the key's "last used" time is recorded after the response (at most once a minute). No key
 * → the session cookie, with the same-origin check on unsafe methods (the cookie would otherwise
 * ride along on a cross-site form post). Neither → one 401 with `WWW-Authenticate`, identical to
 * the one for a bad key. The key is looked up on every request: once a delete has returned, the
 * next request with that key gets 401, whatever cookie comes with it.
 *
 * `withoutKey` (key-only routes): a request with no key is first offered to it (the trigger
 * endpoint's signed sources authenticate the body itself); null → the usual 401, unchanged.
 */
export function withWorkspace<P extends Params = Params>(
  handler: (context: WorkspaceContext<P>) => Promise<Response>,
  {
    accept = "both",
    csvBody = false,
    triggerKeys = false,
    roles,
    refuseKeys = false,
    withoutKey,
  }: {
    accept?: AcceptedCredentials;
    csvBody?: boolean;
    triggerKeys?: boolean;
    roles?: readonly MemberRole[];
    refuseKeys?: boolean;
    withoutKey?: (context: BaseContext<P>) => Promise<Response | null>;
  } = {},
): NextRouteHandler {
  return (request, context) =>
    runRoute(request, async (requestId) => {
      // A path segment no id can have is 404 before the credentials are even looked up.
      const params = assertPathParams((await context.params) as P);
      const run = async (workspaceId: string, actor: Actor, scope: ApiKeyScope, role: MemberRole | null) =>
        noStoreByDefault(await handler({ request, params, requestId, workspaceId, actor, scope, role }));
      const keyPresented = accept !== "session" && readPresentedApiKey(request.headers) !== null;
      if (!keyPresented && withoutKey) {
        const answered = await withoutKey({ request, params, requestId });
        if (answered) return noStoreByDefault(answered);
      }
      if (keyPresented || accept === "key") {
        const db = await getDb();
        const key = await authenticateApiKeyRequest(db, request, requestId);
        try {
          if (key.scope.type === "trigger" && !triggerKeys) throw insufficientScope();
          if (refuseKeys) throw new ApiError("admin_required", "API keys cannot do this: an owner or an admin of the workspace does it, signed in to the web app.");
          return await run(key.workspaceId, { type: "api_key", id: key.id, name: key.name }, key.scope, null);
        } finally {
          // Nothing is scheduled while the stored "last used" is fresh (almost every request).
          if (lastUsedIsStale(key.lastUsedAt)) runAfterResponse(requestId, "recording API key use", () => recordApiKeyUse(db, key));
        }
      }
      const { getRequestSessionUser } = await import("@/lib/auth/session");
      const user = await getRequestSessionUser(request);
      if (!user) throw accept === "session" ? sessionRequired() : apiKeyUnauthorized(false);
      if (UNSAFE_METHODS.has(request.method)) assertSameOrigin(request, { csvBody });
      if (roles && !roles.includes(user.role)) {
        throw roles.includes("admin")
          ? new ApiError("admin_required", "Only an owner or an admin of this workspace can do this; ask one of them.")
          : new ApiError("owner_required", "Only the workspace's owner can do this.");
      }
      return run(user.workspaceId, { type: "user", id: user.id, email: user.email, name: user.name }, FULL_SCOPE, user.role);
    });
}

function sessionRequired(): ApiError {
  return new ApiError("unauthenticated", "Sign in to continue. This endpoint belongs to the web app and does not accept API keys.");
}

/** Workspace data is never stored by shared caches unless a route says otherwise. */
function noStoreByDefault(response: Response): Response {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}

/**
 * Runs `task` once the response has been sent (Next's `after()`); outside a request scope, as in
 * tests and scripts, starts it at once without waiting for it. Failures are logged, never thrown.
 */
export function runAfterResponse(requestId: string, what: string, task: () => Promise<void>): void {
  const run = () =>
    task().catch((error: unknown) => {
      console.error(`[${requestId}] ${what} failed: ${describeError(error)}`);
    });
  try {
    after(run);
  } catch {
    void run();
  }
}

/**
 * `csvBody`: the route also takes `text/csv` from the web app (a CSV upload). Like JSON, it is not a
 * CORS-safelisted type, so a cross-site page cannot send it without a preflight that fails.
 */
export function assertSameOrigin(request: Request, { csvBody = false }: { csvBody?: boolean } = {}): void {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  const expected = allowedOrigins(request);
  const crossSite = fetchSite === "cross-site" || (origin !== null && !expected.has(origin));
  if (crossSite || (origin === null && fetchSite === null)) {
    throw new ApiError("cross_site_request", "This endpoint only accepts requests from the Sendstream web app.");
  }
  const hasBody = request.headers.get("content-length") !== "0" && request.headers.has("content-type");
  const contentType = request.headers.get("content-type") ?? "";
  if (hasBody && !/^application\/json\b/i.test(contentType) && !(csvBody && /^text\/csv\b/i.test(contentType))) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with the header Content-Type: application/json.");
  }
}

function allowedOrigins(request: Request): Set<string> {
  // A configured public URL is the one origin of the web app. X-Forwarded-Host is only as
  // trustworthy as the proxy in front, and a client can send it when there is none.
  if (process.env.APP_URL) return new Set([new URL(process.env.APP_URL).origin]);
  const origins = new Set<string>([new URL(request.url).origin]);
  const forwarded = originFromHeaders(request.headers, new URL(request.url).protocol.replace(":", ""));
  if (forwarded) origins.add(forwarded);
  return origins;
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/**
 * JSON with a strong validator for pollers (the inbox): the body's SHA-256 as the `ETag`, and
 * `304 Not Modified` with no body when the request's `If-None-Match` names it, so a client polling
 * every second or two moves bytes only when something changed.
 */
export function jsonWithEtag(request: Request, body: unknown): Response {
  const text = JSON.stringify(body);
  const etag = `"${createHash("sha256").update(text).digest("base64url").slice(0, 32)}"`;
  const presented = request.headers.get("if-none-match");
  if (presented && presented.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers: { ETag: etag } });
  }
  return new Response(text, { headers: { "Content-Type": "application/json", ETag: etag } });
}

/** Every method answers 405 but those a route object then implements: `{ ...onlyMethods(["GET"]), GET: … }`. */
export function onlyMethods(allowed: string[]): Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", NextRouteHandler> {
  const notAllowed = methodNotAllowed(allowed);
  return { GET: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
}

/** 405 for a method a route does not implement, with the `Allow` header RFC 9110 requires. */
export function methodNotAllowed(allow: string[]): NextRouteHandler {
  return (request) =>
    runRoute(request, async () => {
      throw new ApiError(
        "method_not_allowed",
        `${request.method} is not supported here. Allowed: ${allow.join(", ")}.`,
        { headers: { Allow: allow.join(", ") } },
      );
    });
}
