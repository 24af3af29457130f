import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { installEngine } from "@/lib/engine/jobs";
import { newId } from "@/lib/crypto/random";
import { importsOf, sourceFiles } from "@/lib/testing/imports";
import { startJobLoop } from "./loop";
import { installedJobs, installJobs, runJob, runJobs, stopJobs } from "./runner";
import { drainInProgress, jobsSettled, runJobsSoon } from "./soon";
import { defineJob, type AnyJob, type JobContext } from "./types";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unique = (name: string) => `test.${name}.${newId("job")}`;

afterEach(() => {
  installEngine();
  vi.restoreAllMocks();
});

describe("the job runner", () => {
  it("isolates a failing job: the others run, the failure is reported and logged, every run is timed", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const ran: string[] = [];
    const broken = defineJob({ name: unique("broken"), every: 0, run: async () => { throw new Error("boom"); } });
    const slow = defineJob({ name: unique("slow"), every: 0, run: async () => { await sleep(30); ran.push("slow"); return 3; }, busy: (n) => n > 0 });
    const fine = defineJob({ name: unique("fine"), every: 0, run: async () => { ran.push("fine"); return 0; }, busy: (n) => n > 0 });
    const summary = await runJobs([broken, slow, fine], { deadlineMs: 1_000 });
    expect(ran.sort()).toEqual(["fine", "slow"]);
    expect(summary.jobs.map((run) => [run.name, run.outcome])).toEqual([[broken.name, "failed"], [slow.name, "ran"], [fine.name, "ran"]]);
    expect(summary.jobs[0]!.error).toContain("boom");
    expect(summary.jobs[1]).toMatchObject({ result: 3, busy: true });
    expect(summary.jobs[1]!.durationMs).toBeGreaterThanOrEqual(25);
    expect(summary.busy).toBe(true);
    expect(log.mock.calls.some(([line]) => String(line).includes(`[jobs] ${broken.name} failed: `))).toBe(true);
  });

  it("starts a job at most every `every` ms per process, whoever asks", async () => {
    let runs = 0;
    const job = defineJob({ name: unique("every"), every: 200, run: async () => ++runs });
    expect((await runJob(job, { deadlineMs: 1_000 })).outcome).toBe("ran");
    expect((await runJob(job, { deadlineMs: 1_000 })).outcome).toBe("not due");
    expect(runs).toBe(1);
    await sleep(220);
    expect((await runJob(job, { deadlineMs: 1_000 })).outcome).toBe("ran");
    expect(runs).toBe(2);
  });

  it("joins a single-flight job that is running instead of starting it twice", async () => {
    let runs = 0;
    const job = defineJob({ name: unique("single"), every: 0, singleFlight: true, run: async () => { runs++; await sleep(50); return runs; } });
    const [first, second] = await Promise.all([runJob(job, { deadlineMs: 1_000 }), runJob(job, { deadlineMs: 1_000 })]);
    expect(runs).toBe(1);
    expect([first.outcome, second.outcome]).toEqual(["ran", "joined"]);
    expect(second.result).toBe(1);
  });

  it("gives each run a deadline capped by the job's maxMs, and the shutdown signal", async () => {
    let seen: JobContext | undefined;
    const job = defineJob({ name: unique("deadline"), every: 0, maxMs: 100, run: async (_db, context) => { seen = context; await new Promise((resolve) => context.signal.addEventListener("abort", resolve)); } });
    const started = Date.now();
    const run = runJob(job, { deadlineMs: 10_000 });
    await sleep(10);
    expect(seen!.deadline - started).toBeLessThanOrEqual(110);
    await stopJobs();
    expect((await run).outcome).toBe("ran");
    expect(seen!.signal.aborted).toBe(true);
  });

  it("refuses two jobs with the same name", () => {
    const job = defineJob({ name: unique("twice"), every: 0, run: async () => {} });
    expect(() => installJobs([job, job])).toThrow(/Two jobs/);
  });
});

describe("the drain after a response", () => {
  it("runs the after-response jobs one after another in registry order, coalesces calls, and runs named jobs on their own", async () => {
    const order: string[] = [];
    const job = (name: string, afterResponseMs?: number): AnyJob =>
      defineJob({ name: unique(name), every: 0, afterResponseMs, run: async () => { order.push(`${name}:start`); await sleep(20); order.push(`${name}:end`); } });
    const first = job("first", 1_000);
    const second = job("second", 1_000);
    const notAfter = job("loop-only");
    installJobs([first, notAfter, second]);
    runJobsSoon();
    runJobsSoon();
    await new Promise((resolve) => setImmediate(resolve));
    expect(drainInProgress()).not.toBeNull();
    await jobsSettled();
    // Two calls while the drain ran: it ran once more, never two drains side by side.
    expect(order.slice(0, 4)).toEqual(["first:start", "first:end", "second:start", "second:end"]);
    expect(order.filter((entry) => entry.startsWith("loop-only"))).toEqual([]);
    order.length = 0;
    runJobsSoon([notAfter.name]);
    await new Promise((resolve) => setImmediate(resolve));
    await jobsSettled();
    expect(order).toEqual(["loop-only:start", "loop-only:end"]);
  });

  it("left stopped, starts nothing (not even a drain scheduled before the stop) until a registry is installed again", async () => {
    let runs = 0;
    const job = defineJob({ name: unique("late"), every: 0, afterResponseMs: 1_000, run: async () => { runs++; } });
    installJobs([job]);
    runJobsSoon();
    // The drain is scheduled for the next tick; the stop comes first, as a test file's teardown or a
    // server's shutdown can. The loop's own stop on the same signal does not start jobs again.
    await Promise.all([stopJobs({ keepStopped: true }), stopJobs()]);
    await new Promise((resolve) => setImmediate(resolve));
    await jobsSettled();
    expect(runs).toBe(0);
    expect((await runJob(job, { deadlineMs: 1_000 })).outcome).toBe("stopped");
    expect(runs).toBe(0);

    installJobs([job]);
    runJobsSoon();
    await new Promise((resolve) => setImmediate(resolve));
    await jobsSettled();
    expect(runs).toBe(1);
  });

  it("a drain with nothing to do ends, and the next drain of the same jobs runs", async () => {
    let runs = 0;
    const job = defineJob({ name: unique("named"), every: 0, run: async () => { runs++; } });
    runJobsSoon([job.name]); // not installed yet: nothing to run
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drainInProgress()).toBeNull();

    installJobs([job]);
    runJobsSoon([job.name]);
    await expect.poll(() => runs, { timeout: 2_000 }).toBe(1);
    await jobsSettled();
  });

  it("stopped without keepStopped, starts again at once (a restarted loop)", async () => {
    let runs = 0;
    const job = defineJob({ name: unique("restart"), every: 0, run: async () => { runs++; } });
    await stopJobs();
    expect((await runJob(job, { deadlineMs: 1_000 })).outcome).toBe("ran");
    expect(runs).toBe(1);
  });

  it("the installed registry is the engine's outside these tests", () => {
    expect(installedJobs().map((job) => job.name)).toContain("messaging.dispatch");
  });
});

describe("the loop", () => {
  it("runs every job on its own schedule: a slow job never holds up a fast one; a busy job runs again at once", async () => {
    let fast = 0;
    let slowRuns = 0;
    let busyLeft = 3;
    let busyRuns = 0;
    const jobs = [
      defineJob({ name: unique("slow"), every: 0, run: async (_db, { signal }) => { slowRuns++; await new Promise((resolve) => { signal.addEventListener("abort", resolve); setTimeout(resolve, 5_000); }); } }),
      defineJob({ name: unique("fast"), every: 0, run: async () => { fast++; } }),
      defineJob({ name: unique("busy"), every: 0, run: async () => { busyRuns++; return busyLeft-- > 0; }, busy: (more) => more }),
    ];
    await getDb();
    const stop = startJobLoop(jobs, { pollMs: 50 });
    await expect.poll(() => fast, { timeout: 3_000 }).toBeGreaterThanOrEqual(3);
    await expect.poll(() => busyRuns, { timeout: 3_000 }).toBeGreaterThanOrEqual(4);
    await stop();
    expect(slowRuns).toBe(1);
  });
});

describe("lib/jobs's place", () => {
  it("imports no domain: only the database, the base layer (logging, env, crypto), Next's after() and itself", () => {
    const allowed = ["db", "db/", "drizzle-orm", "lib/logging", "lib/env", "lib/crypto/", "lib/jobs/", "next/server"];
    const offending = sourceFiles(import.meta.dirname).flatMap((file) =>
      importsOf(file)
        .filter((target) => !allowed.some((prefix) => target === prefix || target.startsWith(prefix)))
        .map((target) => `${path.basename(file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
