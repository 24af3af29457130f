import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { assertSameOrigin, methodNotAllowed, withPublic } from "./route";

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

describe("route wrappers", () => {
  it("adds a request id and maps thrown errors to problem+json", async () => {
    const handler = withPublic(async () => {
      throw new ApiError({ status: 418, code: "teapot", title: "Teapot", detail: "short and stout" });
    });
    const response = await handler(new Request("http://app.test/x"), noParams);
    expect(response.status).toBe(418);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await response.json()).requestId).toBe(response.headers.get("x-request-id"));
  });

  it("answers 405 with Allow", async () => {
    const response = await methodNotAllowed(["POST"])(new Request("http://app.test/x", { method: "PUT" }), noParams);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
