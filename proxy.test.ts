import { encode } from "next-auth/jwt";
import { NextRequest, type NextFetchEvent } from "next/server";
import * as pageStaticInfo from "next/dist/build/analysis/get-page-static-info";
import { getMiddlewareRouteMatcher } from "next/dist/shared/lib/router/utils/middleware-route-matcher";
import { afterEach, describe, expect, it } from "vitest";
import { AUTH_BODY_LIMIT_BYTES, contentSecurityPolicy } from "@/lib/http/security";
import proxy, { config } from "./proxy";

const event = {} as NextFetchEvent;
const savedAppUrl = process.env.APP_URL;
afterEach(() => {
  if (savedAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = savedAppUrl;
});

function call(url: string, init: ConstructorParameters<typeof NextRequest>[1] = {}) {
  return proxy(new NextRequest(url, init), event);
}

const passedOn = (response: Response) => response.headers.get("x-middleware-next") === "1";

describe("proxy: next-auth request bodies", () => {
  const url = "http://app.test/api/auth/callback/credentials";

  it("refuses a declared body over the cap with 413 problem+json, before reading it", async () => {
    const response = await call(url, { method: "POST", headers: { "content-length": String(200 * 1024 * 1024) }, body: "x" });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await response.json()).type).toBe("/docs/api#error-payload_too_large");
  });

  it("refuses a streamed body without Content-Length with 411", async () => {
    const body = new ReadableStream({
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const response = await call(url, { method: "POST", body, duplex: "half" } as never);
    expect(response.status).toBe(411);
    expect((await response.json()).type).toBe("/docs/api#error-length_required");
  });

  it("refuses a malformed Content-Length and lets a normal sign-in form through", async () => {
    expect((await call(url, { method: "POST", headers: { "content-length": "12abc" }, body: "x" })).status).toBe(400);
    const form = "email=ada%40example.test&password=secret&csrfToken=abc&json=true";
    const ok = await call(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(form.length) }, body: form });
    expect(passedOn(ok)).toBe(true);
    const atCap = await call(url, { method: "POST", headers: { "content-length": String(AUTH_BODY_LIMIT_BYTES) }, body: "x" });
    expect(passedOn(atCap)).toBe(true);
    expect(passedOn(await call("http://app.test/api/auth/session"))).toBe(true);
  });

  it("matches next-auth's routes but not the other API routes or the trigger endpoint", () => {
    const [auth, pages] = config.matcher as [string, { source: string }, string];
    expect(auth).toBe("/api/auth/:path*");
    const pagePattern = new RegExp(`^${pages.source}$`);
    expect(pagePattern.test("/sign-in")).toBe(true);
    expect(pagePattern.test("/campaigns/cmp_1")).toBe(true);
    expect(pagePattern.test("/")).toBe(true);
    expect(pagePattern.test("/api/v1/campaigns")).toBe(false);
    expect(pagePattern.test("/outbound/cmp_1")).toBe(false);
    expect(pagePattern.test("/_next/static/chunks/a.js")).toBe(false);
  });
});

describe("proxy: pages", () => {
  it("sets a nonce-based CSP without 'unsafe-inline' scripts, on the response and for Next's renderer", async () => {
    const first = await call("http://app.test/sign-in");
    const policy = first.headers.get("content-security-policy")!;
    const scriptSrc = policy.split("; ").find((directive) => directive.startsWith("script-src "))!;
    expect(scriptSrc).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("worker-src 'self' blob:");
    expect(passedOn(first)).toBe(true);
    // NextResponse.next({ request: { headers } }) hands overridden request headers to the renderer this way.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(/'nonce-([^']+)'/.exec(policy)![1]);
    const second = await call("http://app.test/sign-in");
    expect(second.headers.get("content-security-policy")).not.toBe(policy);
  });

  it("allows eval for React's development build only", () => {
    expect(contentSecurityPolicy("n", { dev: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy("n", { dev: false })).not.toContain("'unsafe-eval'");
  });

  it("sends HSTS only when the request came over https", async () => {
    delete process.env.APP_URL;
    expect((await call("http://app.test/sign-in")).headers.get("strict-transport-security")).toBeNull();
    expect((await call("https://app.test/sign-in")).headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const forwarded = await call("http://app.test/sign-in", { headers: { "x-forwarded-proto": "https" } });
    expect(forwarded.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    process.env.APP_URL = "https://app.example";
    expect((await call("http://app.test/sign-in")).headers.get("strict-transport-security")).not.toBeNull();
  });

  it("still sends signed-out visitors of the dashboard to sign in, and lets a session through with the CSP", async () => {
    const redirect = await call("http://app.test/campaigns/cmp_1?tab=logs");
    expect(redirect.status).toBe(307);
    const location = new URL(redirect.headers.get("location")!);
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("callbackUrl")).toBe("/campaigns/cmp_1?tab=logs");

    const token = await encode({ token: { sub: "usr_1", workspaceId: "ws_1" }, secret: process.env.AUTH_SECRET! });
    const signedIn = await call("http://app.test/campaigns", { headers: { cookie: `next-auth.session-token=${token}` } });
    expect(passedOn(signedIn)).toBe(true);
    expect(signedIn.headers.get("content-security-policy")).toMatch(/'nonce-/);
  });
});

describe("proxy: paths that do not decode to text", () => {
  // Next.js itself matches the raw path against the compiled matchers; these are compiled the same way.
  // Exported by Next.js (it compiles proxy.ts's matchers with it) but not declared in its types.
  const { getMiddlewareMatchers } = pageStaticInfo as unknown as { getMiddlewareMatchers: (matcher: unknown, nextConfig: object) => pageStaticInfo.ProxyMatcher[] };
  const matches = getMiddlewareRouteMatcher(getMiddlewareMatchers(config.matcher, {}));
  const plainRequest = { headers: {}, cookies: {} } as never;

  it("are matched on every route, API and trigger endpoint included, and no API path that decodes is", () => {
    for (const path of ["/api/v1/campaigns/%ff", "/api/campaigns/%FF/trigger", "/outbound/cmp_%00", "/api/v1/contacts/%zz", "/api/v1/campaigns/cmp_%C3%28", "/api/keys/key_%7f"]) {
      expect(matches(path, plainRequest, {}), path).toBe(true);
    }
    for (const path of ["/api/v1/campaigns/cmp_1", "/api/v1/contacts/%2B14155552671", "/outbound/cmp_1", "/api/campaigns/cmp_1/trigger"]) {
      expect(matches(path, plainRequest, {}), path).toBe(false);
    }
  });

  it("answer an API path with 404 problem+json and a page with the not-found page", async () => {
    for (const url of ["http://app.test/api/v1/campaigns/%ff", "http://app.test/api/campaigns/cmp_%00/trigger", "http://app.test/outbound/%C3%28", "http://app.test/api/auth/%ff"]) {
      const response = await call(url, { method: "POST" });
      expect(response.status, url).toBe(404);
      expect(response.headers.get("content-type"), url).toMatch(/^application\/problem\+json/);
      expect((await response.json()).type).toBe("/docs/api#error-not_found");
    }
    for (const url of ["http://app.test/invite/%ff", "http://app.test/campaigns/cmp_%00", "http://app.test/contacts/%zz/edit"]) {
      const response = await call(url);
      expect(new URL(response.headers.get("x-middleware-rewrite")!).pathname, url).toBe("/_no-such-page");
      expect(response.headers.get("content-security-policy"), url).toMatch(/'nonce-/);
    }
    expect(passedOn(await call("http://app.test/api/v1/campaigns/caf%C3%A9"))).toBe(true);
  });
});
