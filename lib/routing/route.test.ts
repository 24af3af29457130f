import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { apiKeys } from "@/db/schema";
import { createApiKey, deleteApiKey } from "@/lib/api-keys/service";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie, type ApiAccount } from "@/lib/testing/api-factories";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { ApiError } from "@/lib/http/errors";
import { problemType } from "@/lib/http/problem";
import { assertSameOrigin, methodNotAllowed, webAppOnly, withPublic, withWorkspace, type NextRouteHandler, type WorkspaceContext } from "./route";

type Params = Record<string, string>;

const noParams = { params: Promise.resolve({}) };

function req(method: string, headers: Record<string, string>) {
  return new Request("http://app.test/api/keys", { method, headers });
}

describe("assertSameOrigin", () => {
  it("accepts a same-origin JSON request", () => {
    expect(() => assertSameOrigin(req("POST", { origin: "http://app.test", "content-type": "application/json" }))).not.toThrow();
  });

  it.each([
    ["another origin", { origin: "http://evil.test", "content-type": "application/json" }],
    ["a cross-site fetch", { "sec-fetch-site": "cross-site", "content-type": "application/json" }],
    ["no origin information at all", { "content-type": "application/json" }],
  ])("refuses %s with 403", (_, headers) => {
    try {
      assertSameOrigin(req("POST", headers));
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).status).toBe(403);
    }
  });

  it("refuses a same-origin form post with 415", () => {
    try {
      assertSameOrigin(req("POST", { origin: "http://app.test", "content-type": "application/x-www-form-urlencoded" }));
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).status).toBe(415);
    }
  });
});

describe("assertSameOrigin with APP_URL", () => {
  const saved = process.env.APP_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.APP_URL;
    else process.env.APP_URL = saved;
  });

  it("accepts APP_URL's origin and only that one; X-Forwarded-Host is ignored", () => {
    process.env.APP_URL = "https://app.example/";
    const json = { "content-type": "application/json" };
    expect(() => assertSameOrigin(req("POST", { ...json, origin: "https://app.example" }))).not.toThrow();
    const refused = [
      { ...json, origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      { ...json, origin: "http://app.test" },
      { ...json, origin: "http://app.example" },
    ];
    for (const headers of refused) {
      expect(() => assertSameOrigin(req("POST", headers))).toThrow(expect.objectContaining({ status: 403 }));
    }
  });

  it("without APP_URL, accepts the request's own origin or the forwarded one", () => {
    delete process.env.APP_URL;
    const json = { "content-type": "application/json" };
    expect(() => assertSameOrigin(req("POST", { ...json, origin: "http://app.test" }))).not.toThrow();
    expect(() => assertSameOrigin(req("POST", { ...json, origin: "https://public.example", "x-forwarded-host": "public.example", "x-forwarded-proto": "https" }))).not.toThrow();
  });
});

describe("route wrappers", () => {
  it("adds a request id and maps thrown errors to problem+json", async () => {
    const handler = withPublic(async () => {
      throw new ApiError("campaign_not_active", "short and stout");
    });
    const response = await handler(new Request("http://app.test/x"), noParams);
    expect(response.status).toBe(409);
    expect(await response.clone().json()).toMatchObject({ title: "Campaign not active", detail: "short and stout" });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await response.json()).requestId).toBe(response.headers.get("x-request-id"));
  });

  it("answers a route without dynamic segments, which Next's production server calls without params", async () => {
    const withoutParams = { params: Promise.resolve(undefined) } as unknown as typeof noParams;
    const ok = () => Promise.resolve(Response.json({ ok: true }));
    expect((await withPublic(ok)(new Request("http://app.test/api/health"), withoutParams)).status).toBe(200);
    const account = await createApiAccount();
    const response = await withWorkspace(ok)(new Request("http://app.test/api/v1/x", { headers: { "x-api-key": account.key } }), withoutParams);
    expect(response.status).toBe(200);
  });

  it("answers 405 with Allow", async () => {
    const response = await methodNotAllowed(["POST"])(new Request("http://app.test/x", { method: "PUT" }), noParams);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("withWorkspace: one wrapper for a session or an API key", () => {
  const echo = (context: WorkspaceContext<Params>) => Promise.resolve(Response.json({ workspaceId: context.workspaceId, actor: context.actor }));
  const both = withWorkspace(echo);
  const keyOnly = withWorkspace(echo, { accept: "key" });
  const sessionOnly = withWorkspace(echo, webAppOnly);

  let keyAccount: ApiAccount;
  let userAccount: ApiAccount;
  let cookie: string;

  beforeAll(async () => {
    keyAccount = await createApiAccount();
    userAccount = await createApiAccount();
    cookie = await sessionCookie(userAccount);
  });

  const post = (handler: NextRouteHandler, headers: Record<string, string>) =>
    callRoute<{ workspaceId: string; actor: { type: string; id: string } } & { type?: string }>(handler, "POST", "/api/v1/x", { body: {}, headers });

  it("cookie with a same-origin POST → the signed-in user acts in their workspace", async () => {
    const result = await post(both, { cookie, ...SAME_ORIGIN });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ workspaceId: userAccount.workspaceId, actor: expect.objectContaining({ type: "user", id: userAccount.userId }) });
    expect(result.headers.get("cache-control")).toBe("no-store");
  });

  it("cookie with a cross-site POST → 403, and without any origin information → 403", async () => {
    const crossSite = await post(both, { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.type).toBe(problemType("cross_site_request"));
    expect((await post(both, { cookie })).status).toBe(403);
  });

  it("cookie on a GET needs no origin check", async () => {
    const result = await callRoute<{ workspaceId: string }>(both, "GET", "/api/v1/x", { cookie });
    expect(result.status).toBe(200);
    expect(result.body.workspaceId).toBe(userAccount.workspaceId);
  });

  it("key with a cross-site POST → allowed: integrators are other origins", async () => {
    const result = await post(both, { "x-api-key": keyAccount.key, origin: "https://shop.example", "sec-fetch-site": "cross-site" });
    expect(result.status).toBe(200);
    expect(result.body.actor).toMatchObject({ type: "api_key", name: "Test integration" });
    expect(result.body.workspaceId).toBe(keyAccount.workspaceId);
  });

  it("key and cookie → the key decides (workspace and actor), the cookie is ignored", async () => {
    const result = await post(both, { "x-api-key": keyAccount.key, cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(result.status).toBe(200);
    expect(result.body.workspaceId).toBe(keyAccount.workspaceId);
    expect(result.body.actor.type).toBe("api_key");
  });

  it("deleted key with a valid cookie → 401: the key decides even when it fails", async () => {
    const account = await createApiAccount();
    const db = await getDb();
    const [key] = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.workspaceId, account.workspaceId));
    await deleteApiKey(db, account.workspaceId, { userId: account.userId, ip: null, userAgent: null }, key!.id);
    const result = await post(both, { "authorization": `Bearer ${account.key}`, cookie: await sessionCookie(account), ...SAME_ORIGIN });
    expect(result.status).toBe(401);
    expect(result.body.type).toBe(problemType("unauthorized"));
    expect(result.headers.get("www-authenticate")).toContain('Bearer realm="sendstream"');
  });

  it("neither → one 401 with WWW-Authenticate, the same as for a bad key", async () => {
    const none = await callRoute<{ type: string; detail: string }>(both, "GET", "/api/v1/x");
    const badKey = await callRoute<{ type: string; detail: string }>(both, "GET", "/api/v1/x", { key: "ss_not-a-real-key" });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="sendstream"');
    expect(badKey.status).toBe(401);
    expect({ type: none.body.type, detail: none.body.detail }).toEqual({ type: badKey.body.type, detail: badKey.body.detail });
  });

  it("a forged or foreign-secret cookie is no session → 401", async () => {
    const forged = await encode({ token: { sub: userAccount.userId, workspaceId: userAccount.workspaceId }, secret: "another-secret-0123456789abcdef0123" });
    expect((await callRoute(both, "GET", "/api/v1/x", { cookie: `next-auth.session-token=${forged}` })).status).toBe(401);
    expect((await callRoute(both, "GET", "/api/v1/x", { cookie: "next-auth.session-token=garbage" })).status).toBe(401);
  });

  it("a session token in Authorization: Bearer is treated as a (malformed) API key, never as a session", async () => {
    const token = cookie.split("=")[1]!;
    const result = await callRoute(both, "GET", "/api/v1/x", { headers: { authorization: `Bearer ${token}` } });
    expect(result.status).toBe(401);
  });

  it("key-only routes (the trigger) refuse a session with the API-key 401", async () => {
    const result = await post(keyOnly, { cookie, ...SAME_ORIGIN });
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe('Bearer realm="sendstream"');
    expect((await post(keyOnly, { "x-api-key": keyAccount.key })).status).toBe(200);
  });

  it("a trigger-only key → 403 insufficient_scope on every route that does not take trigger keys, even key-only ones; the handler never runs", async () => {
    const fx = await createTriggerFixture();
    const { key } = await createApiKey(await getDb(), fx.workspaceId, { userId: fx.userId, ip: null, userAgent: null }, {
      name: "Checkout",
      scope: { type: "trigger", campaignIds: [fx.campaignId] },
    });
    const ran = vi.fn(echo);
    for (const handler of [withWorkspace(ran), withWorkspace(ran, { accept: "key" })]) {
      const refused = await post(handler, { "x-api-key": key });
      expect(refused.status).toBe(403);
      expect(refused.body.type).toBe(problemType("insufficient_scope"));
    }
    expect(ran).not.toHaveBeenCalled();
    const allowed = await callRoute<{ scope: unknown }>(
      withWorkspace(async (context) => Response.json({ scope: context.scope }), { accept: "key", triggerKeys: true }),
      "POST",
      "/api/v1/x",
      { body: {}, headers: { "x-api-key": key } },
    );
    expect(allowed.body.scope).toEqual({ type: "trigger", campaignIds: [fx.campaignId] });
    const session = await callRoute<{ scope: unknown }>(withWorkspace(async (context) => Response.json({ scope: context.scope })), "GET", "/api/v1/x", { cookie });
    expect(session.body.scope).toEqual({ type: "full" });
  });

  it("session-only routes (keys, sender) never accept a key", async () => {
    const result = await post(sessionOnly, { "x-api-key": keyAccount.key });
    expect(result.status).toBe(401);
    expect(result.body.type).toBe(problemType("unauthenticated"));
    const withCookie = await post(sessionOnly, { "x-api-key": keyAccount.key, cookie, ...SAME_ORIGIN });
    expect(withCookie.status).toBe(200);
    expect(withCookie.body.actor.type).toBe("user");
  });

  it("records the key's last use after a key request", async () => {
    const account = await createApiAccount();
    await callRoute(both, "GET", "/api/v1/x", { key: account.key });
    const db = await getDb();
    await vi.waitFor(async () => {
      const [row] = await db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.workspaceId, account.workspaceId));
      expect(row!.lastUsedAt).not.toBeNull();
    }, { timeout: 10_000, interval: 50 });
  });
});
