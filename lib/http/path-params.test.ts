// Every route with a dynamic segment, called with ids no resource can have (a NUL, text that was not
// UTF-8, a lone surrogate, a quote, a very long one): 404 (or, for a contact's phone, 422)
// problem+json, never a database error. Route
// files are found on disk, so a new route is checked without being listed here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { NextRouteHandler } from "@/lib/routing/route";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { pageParams } from "./page-not-found";
import { assertPathParams, isDecodablePath, isPathParamShape } from "./path-params";

const APP = path.join(process.cwd(), "app");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** next-auth's catch-all is next-auth's own; proxy.ts refuses undecodable paths before it. */
const NOT_OURS = [/\[\.\.\.nextauth\]/];

function filesNamed(name: string, dir = APP): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesNamed(name, full);
    return entry.name === name ? [full] : [];
  });
}

const BAD_IDS = [
  "\u0000",
  "cmp_\u0000",
  "cmp_4Fh9\u0000x",
  "\ufffd\ufffd", // what `%ff%fe` becomes once decoded leniently
  "%ff",
  "cmp_\ud800",
  "cmp_é",
  "cmp_x'; select 1 --",
  `cmp_${"a".repeat(500)}`,
  "../cmp_x",
];

describe("dynamic path segments", () => {
  it("answer 404 or 422 problem+json for an id no resource can have, on every route and method", async () => {
    const account = await createApiAccount();
    const cookie = await sessionCookie({ userId: account.userId, workspaceId: account.workspaceId });
    const files = filesNamed("route.ts")
      .map((file) => ({ file, route: path.relative(APP, file).replaceAll(path.sep, "/") }))
      .filter(({ route }) => /\[[^\]]+\]/.test(route) && !NOT_OURS.some((p) => p.test(route)));
    expect(files.length).toBeGreaterThan(40);
    let checked = 0;
    for (const { file, route } of files) {
      const names = [...route.matchAll(/\[([^\]]+)\]/g)].map(([, name]) => name!);
      const handlers = (await import(file)) as Record<string, NextRouteHandler>;
      for (const method of METHODS) {
        const handler = handlers[method];
        if (!handler) continue;
        for (const badName of names) {
          for (const bad of BAD_IDS) {
            const params = Object.fromEntries(names.map((name) => [name, name === badName ? bad : "abc_4Fh9x"]));
            const result = await callRoute<{ type?: string }>(handler, method, `/${route}`, {
              key: account.key,
              cookie,
              headers: SAME_ORIGIN,
              params,
              body: method === "GET" || method === "DELETE" ? undefined : {},
            });
            if (result.status === 405) continue;
            const label = `${method} /${route} with ${badName}=${JSON.stringify(bad)}`;
            expect(result.headers.get("content-type"), label).toMatch(/^application\/problem\+json/);
            // A contact's segment may be a phone number: one that is not is the service's 422.
            expect([404, 422], `${label} → ${result.status}`).toContain(result.status);
            expect(result.body.type, label).toBe(result.status === 404 ? "/docs/api#error-not_found" : "/docs/api#error-validation_failed");
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(400);
  });
});

describe("path param shapes", () => {
  it("take every id the app issues, an invitation token and a contact's phone", () => {
    expect(isPathParamShape("id", "cmp_4Fh9aZ0qL2xYw8VbN3kR7t")).toBe(true);
    expect(isPathParamShape("id", "msg_4Fh9aZ0qL2xYw800000a1f")).toBe(true);
    expect(isPathParamShape("userId", "usr_4Fh9aZ0qL2xYw8VbN3kR7t")).toBe(true);
    expect(isPathParamShape("token", "q0M2-3_xYzAbCdEfGhIjKlMnOpQrStUvWxYz0123456")).toBe(true);
    for (const phone of ["+14155552671", "%2B14155552671", "+1 (415) 555-2671", "ctc_4Fh9aZ0qL2xYw8VbN3kR7t"]) {
      expect(isPathParamShape("idOrPhone", phone), phone).toBe(true);
    }
    expect(isPathParamShape("idOrPhone", "+1415\u00005552671")).toBe(false);
    expect(isPathParamShape("token", "abc.def")).toBe(false);
    expect(assertPathParams({ id: "cmp_x", all: ["a", "b"] })).toEqual({ id: "cmp_x", all: ["a", "b"] });
  });

  it("tell a path that decodes to text from one that does not", () => {
    expect(isDecodablePath("/campaigns/cmp_x")).toBe(true);
    expect(isDecodablePath("/contacts/%2B14155552671")).toBe(true);
    expect(isDecodablePath("/caf%C3%A9")).toBe(true);
    expect(isDecodablePath("/invite/%ff")).toBe(false);
    expect(isDecodablePath("/api/v1/campaigns/%C3%28")).toBe(false);
    expect(isDecodablePath("/api/v1/campaigns/%zz")).toBe(false);
    expect(isDecodablePath("/api/v1/campaigns/cmp_%00")).toBe(false);
    expect(isDecodablePath("/api/v1/campaigns/cmp_%0a")).toBe(false);
  });
});

describe("pages with a dynamic segment", () => {
  it("render the not-found page for an id no resource can have, before loading anything", async () => {
    const notFoundDigest = (error: unknown) => String((error as { digest?: string }).digest);
    for (const bad of BAD_IDS) {
      await expect(pageParams(Promise.resolve({ id: bad })).catch(notFoundDigest), JSON.stringify(bad)).resolves.toMatch(/;404$/);
    }
    await expect(pageParams(Promise.resolve({ id: "cmp_4Fh9x" }))).resolves.toEqual({ id: "cmp_4Fh9x" });
    // Every such page reads its params through pageParams.
    const pages = filesNamed("page.tsx").filter((file) => /\[[^\]]+\]/.test(file));
    expect(pages.length).toBeGreaterThanOrEqual(9);
    for (const page of pages) expect(fs.readFileSync(page, "utf8"), page).toMatch(/pageParams\(params\)/);
  });
});
