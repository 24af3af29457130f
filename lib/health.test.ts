import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { newId } from "@/lib/crypto/random";
import { checkHealth } from "./health";
import { STALLED_AFTER_MS } from "./jobs/health";
import { startJobLoop } from "./jobs/loop";
import { defineJob } from "./jobs/types";

afterEach(() => vi.restoreAllMocks());

describe("checkHealth", () => {
  it("reports the database it reached, how long it took, and the process's jobs", async () => {
    const health = await checkHealth();
    expect(health.database).toBe(process.env.DATABASE_URL ? "postgres" : "embedded");
    expect(health.latencyMs).toBeGreaterThanOrEqual(0);
    expect(health.jobs.mode).toBe("off");
    expect(["ok", "degraded"]).toContain(health.status);
  });

  it("is unavailable while a job of the loop is stalled, ok again once the loop is gone", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await getDb();
    const hung = defineJob({
      name: `test.hung.${newId("job")}`,
      every: 0,
      run: (_db, { signal }) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())),
    });
    const stop = startJobLoop([hung], { pollMs: 20 });
    try {
      expect((await checkHealth()).jobs.stalled).toEqual([]);
      const now = Date.now();
      vi.spyOn(Date, "now").mockReturnValue(now + STALLED_AFTER_MS + 1_000);
      const health = await checkHealth();
      expect(health.status).toBe("unavailable");
      expect(health.database).toBe(process.env.DATABASE_URL ? "postgres" : "embedded");
      expect(health.jobs).toMatchObject({ mode: "loop", stalled: [hung.name] });
    } finally {
      vi.restoreAllMocks();
      await stop();
    }
    expect((await checkHealth()).jobs.stalled).toEqual([]);
  });
});
