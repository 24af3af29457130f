import { describe, expect, it } from "vitest";
import { DEFAULT_AFTER_SIGN_IN, safeCallbackUrl } from "./callback-url";

const app = "https://app.example";

describe("safeCallbackUrl", () => {
  it("keeps same-origin paths, query and fragment", () => {
    expect(safeCallbackUrl("/campaigns/cmp_1?tab=logs#top", app)).toBe("/campaigns/cmp_1?tab=logs#top");
    expect(safeCallbackUrl("https://app.example/logs", app)).toBe("/logs");
    expect(safeCallbackUrl("/contacts/%2F%2Fevil.example", app)).toBe("/contacts/%2F%2Fevil.example");
  });

  it.each([
    "//evil.example/x",
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "\\/evil.example/x",
    "https://evil.example/x",
    "http://app.example/x",
    "http:evil.example",
    "//app.example@evil.example/x",
    "https://app.example.evil.example/",
    " //evil.example",
    "\t//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "\u0000//evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "ftp://app.example/x",
  ])("sends %j to the default", (raw) => {
    expect(safeCallbackUrl(raw, app)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  it("never returns a path a browser would read as another host", () => {
    for (const raw of ["/.//evil.example/x", "/..//evil.example", "/%2e//evil.example", "///evil.example"]) {
      const result = safeCallbackUrl(raw, app);
      expect(result.startsWith("/")).toBe(true);
      expect(new URL(result, app).origin).toBe(app);
    }
  });

  it("sends non-strings, empty and oversized values to the default", () => {
    expect(safeCallbackUrl(undefined, app)).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(safeCallbackUrl(["/logs"], app)).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(safeCallbackUrl("", app)).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(safeCallbackUrl(`/${"a".repeat(3000)}`, app)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  it("accepts an app origin given with a path", () => {
    expect(safeCallbackUrl("/logs", "https://app.example/api/auth")).toBe("/logs");
  });
});

describe("next-auth's redirect callback", () => {
  it("sends another origin to the default and keeps same-origin paths", async () => {
    const { authOptions } = await import("./options");
    const redirect = authOptions.callbacks!.redirect!;
    expect(await redirect({ url: "//evil.example/x", baseUrl: app })).toBe(`${app}${DEFAULT_AFTER_SIGN_IN}`);
    expect(await redirect({ url: "/\\evil.example/x", baseUrl: app })).toBe(`${app}${DEFAULT_AFTER_SIGN_IN}`);
    expect(await redirect({ url: "https://evil.example/x", baseUrl: app })).toBe(`${app}${DEFAULT_AFTER_SIGN_IN}`);
    expect(await redirect({ url: `${app}/logs?x=1`, baseUrl: app })).toBe(`${app}/logs?x=1`);
  });
});
