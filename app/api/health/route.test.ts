import { describe, expect, it } from "vitest";
import { GET } from "./route";

describe("GET /api/health", () => {
  it("reports the database it reached and the process's jobs", async () => {
    const response = await GET(new Request("http://app.test/api/health"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(["ok", "degraded"]).toContain(body.status);
    expect(body.database).toBe(process.env.DATABASE_URL ? "postgres" : "embedded");
    expect(body.jobs).toMatchObject({ mode: "off", stalled: [] });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
