import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function isRunning(pid: number): boolean {
  try {
    // A zombie (exited, not yet reaped) is not running.
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** Runs bench/processes-fixture.ts, optionally signals it once its child runs; its exit code and the child's pid. */
async function runFixture(signal: NodeJS.Signals | null, env: Record<string, string> = {}) {
  // Node itself: tsx's command kills its child when it has not acknowledged a relayed signal within 30 ms.
  const bench = spawn(process.execPath, ["--import", "tsx", "bench/processes-fixture.ts"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => bench.once("exit", (code) => resolve(code)));
  const childPid = await new Promise<number>((resolve, reject) => {
    bench.stdout!.on("data", (chunk: Buffer) => {
      const match = /child (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    bench.once("exit", () => reject(new Error("the fixture exited before starting its child")));
  });
  expect(isRunning(childPid)).toBe(true);
  if (signal) bench.kill(signal);
  const code = await exited;
  try {
    await expect.poll(() => isRunning(childPid), { timeout: 15_000 }).toBe(false);
  } finally {
    if (isRunning(childPid)) process.kill(childPid, "SIGKILL");
  }
  return code;
}

describe("processes a benchmark starts", () => {
  it("are stopped when the benchmark gets SIGINT or SIGTERM", async () => {
    expect(await runFixture("SIGINT")).toBe(130);
    expect(await runFixture("SIGTERM")).toBe(143);
  }, 90_000);

  it("are killed when the benchmark fails", async () => {
    expect(await runFixture(null, { BENCH_FIXTURE: "fail" })).toBe(1);
  }, 90_000);
});
