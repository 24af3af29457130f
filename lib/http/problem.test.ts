import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "./errors";
import { formatPath, isDatabaseUnavailable, problemResponse, toApiError } from "./problem";

describe("problemResponse", () => {
  it("renders RFC 9457 members, the content type and no-store", async () => {
    const response = problemResponse(
      new ApiError("campaign_not_active", "The campaign is paused.", { headers: { "X-Extra": "1" } }),
      { requestId: "req_1" },
    );
    expect(response.status).toBe(409);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-extra")).toBe("1");
    expect(await response.json()).toEqual({
      type: "/docs/api#error-campaign_not_active",
      title: "Campaign not active",
      status: 409,
      detail: "The campaign is paused.",
      requestId: "req_1",
    });
  });

  it("cannot let an extension overwrite the standard members", async () => {
    const response = problemResponse(new ApiError("bad_request", "d", { extensions: { status: 200, title: "ok", limit: 5 } }));
    const body = await response.json();
    expect(body.status).toBe(400);
    expect(body.title).toBe("Bad request");
    expect(body.limit).toBe(5);
  });
});

describe("toApiError", () => {
  it("maps zod errors to 422 with per-field paths", () => {
    const schema = z.array(z.object({ phone: z.string() }));
    const result = schema.safeParse([{ phone: "1" }, {}]);
    const error = toApiError(result.error);
    expect(error.status).toBe(422);
    expect(error.errors).toEqual([expect.objectContaining({ path: "[1].phone", code: "invalid_type" })]);
  });

  it("maps connection failures to 503 with Retry-After", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const error = toApiError(new Error("query failed", { cause: refused }));
    expect(error.status).toBe(503);
    expect(new Headers(error.headers).get("retry-after")).toBe("5");
  });

  it("turns anything else into a 500 that does not leak the message", () => {
    const error = toApiError(new Error("secret internals at /srv/app.ts:12"));
    expect(error.status).toBe(500);
    expect(error.detail).not.toContain("secret");
  });

  it("passes ApiError through untouched", () => {
    const original = new ApiError("not_found", "nope");
    expect(toApiError(original)).toBe(original);
  });
});

describe("helpers", () => {
  it("formats paths like JSON paths", () => {
    expect(formatPath([3, "phone"])).toBe("[3].phone");
    expect(formatPath(["fields", 1, "name"])).toBe("fields[1].name");
    expect(formatPath([])).toBe("");
  });

  it("treats a connection lost mid-query (a Postgres restart) as an unavailable database", () => {
    for (const code of ["CONNECTION_CLOSED", "CONNECTION_ENDED", "57P01", "57P02", "08006", "DATABASE_TIMEOUT", "57014", "25P03"]) {
      const wrapped = new Error("database query failed", { cause: Object.assign(new Error("lost"), { code }) });
      expect(isDatabaseUnavailable(wrapped), code).toBe(true);
      expect(toApiError(wrapped).code).toBe("service_unavailable");
    }
  });

  it("does not treat ordinary errors as an unavailable database", () => {
    expect(isDatabaseUnavailable(new Error("x"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "23505" }))).toBe(false);
  });
});
