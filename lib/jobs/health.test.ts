import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { newId } from "@/lib/crypto/random";
import { jobsHealth, STALLED_AFTER_MS } from "./health";
import { startJobLoop } from "./loop";
import { runJob } from "./runner";
import { defineJob } from "./types";

const unique = (name: string) => `test.${name}.${newId("job")}`;

// The mode follows the environment (VERCEL, DISPATCH_CHAIN): the tests hand it over rather than
// change the process's.
const NO_PLATFORM = {};

afterEach(() => vi.restoreAllMocks());

describe("jobsHealth", () => {
  it("without a loop in the process: off, with the age of the last run and the jobs whose last run failed", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const ok = defineJob({ name: unique("ok"), every: 0, run: async () => {} });
    const broken = defineJob({ name: unique("broken"), every: 0, run: async () => { throw new Error("boom"); } });
    await runJob(ok, { deadlineMs: 1_000 });
    await runJob(broken, { deadlineMs: 1_000 });
    const health = jobsHealth(Date.now() + 5_000, NO_PLATFORM);
    expect(health.mode).toBe("off");
    expect(health.lastPassAgeMs).toBeGreaterThanOrEqual(5_000);
    expect(health.lastPassAgeMs).toBeLessThan(6_000);
    expect(health.failing).toContain(broken.name);
    expect(health.failing).not.toContain(ok.name);
    expect(health.stalled).toEqual([]);
    // A later run that succeeds clears the failure.
    const fixed = { ...broken, run: async () => {} };
    await runJob(fixed, { deadlineMs: 1_000 });
    expect(jobsHealth().failing).not.toContain(broken.name);
  });

  it("on Vercel, or with DISPATCH_CHAIN=on, the dispatch chain runs the jobs: serverless", () => {
    expect(jobsHealth(Date.now(), { VERCEL: "1" }).mode).toBe("serverless");
    expect(jobsHealth(Date.now(), { VERCEL: "1", DISPATCH_CHAIN: "off" }).mode).toBe("off");
    expect(jobsHealth(Date.now(), { DISPATCH_CHAIN: "on" }).mode).toBe("serverless");
  });

  it("in the loop: a job with no run ended for its `every` plus a minute is stalled", async () => {
    await getDb();
    const fast = defineJob({ name: unique("fast"), every: 0, run: async () => {} });
    const hung = defineJob({
      name: unique("hung"),
      every: 30_000,
      run: (_db, { signal }) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())),
    });
    const stop = startJobLoop([fast, hung], { pollMs: 20 });
    try {
      await expect.poll(() => jobsHealth().lastPassAgeMs, { timeout: 3_000 }).not.toBeNull();
      const now = Date.now();
      expect(jobsHealth(now)).toMatchObject({ mode: "loop", stalled: [] });
      // `fast` ended a run by now (and ends one every ~20 ms); nothing of `hung` ever ends.
      expect(jobsHealth(now + STALLED_AFTER_MS - 1_000).stalled).toEqual([]);
      expect(jobsHealth(now + STALLED_AFTER_MS + 1_000).stalled).toEqual([fast.name]);
      expect(jobsHealth(now + 30_000 + STALLED_AFTER_MS + 1_000).stalled).toEqual([fast.name, hung.name].sort());
      // Real time: `fast` keeps finishing, and `hung` is not overdue yet.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(jobsHealth().stalled).toEqual([]);
    } finally {
      await stop();
    }
    expect(jobsHealth(Date.now(), NO_PLATFORM).mode).toBe("off");
  });
});
