import { describe, expect, it } from "vitest";
import { GET } from "./route";

describe("GET /api/health", () => {
  it("reports the database it reached", async () => {
    const response = await GET(new Request("http://app.test/api/health"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe("ok");
    expect(body.database).toBe(process.env.DATABASE_URL ? "postgres" : "embedded");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
