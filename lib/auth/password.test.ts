import bcrypt from "bcryptjs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, PRODUCTION_PARAMS, verifyPassword } from "./password";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The share of the time `work` kept the event loop busy (0: idle throughout, 1: never free). */
async function loopBusyShare(work: () => Promise<unknown>): Promise<number> {
  const before = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(before).utilization;
}

describe("password hashing", () => {
  it("stores scrypt with its parameters and a fresh salt, and verifies", async () => {
    const hash = await hashPassword("correct horse battery", PRODUCTION_PARAMS);
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hashPassword("correct horse battery")).not.toBe(hash);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batter", hash)).toBe(false);
    expect(needsRehash(hash, PRODUCTION_PARAMS)).toBe(false);
  });

  it("hashes at production cost outside the test runner, and cheaply inside it", async () => {
    const script = `import("./lib/auth/password.ts").then(async (m) => console.log(await m.hashPassword("x")))`;
    const env = { ...process.env, NODE_ENV: "production" as const };
    const run = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
    expect(run.stdout).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(await hashPassword("x")).toMatch(/^scrypt\$1024\$8\$1\$/);
  });

  it("refuses a missing or malformed hash", async () => {
    expect(await verifyPassword("anything", null)).toBe(false);
    expect(await verifyPassword("anything", "scrypt$1073741824$8$1$c2FsdHNhbHQ$AAAA")).toBe(false);
    expect(await verifyPassword("anything", "plain text")).toBe(false);
  });

  it("still verifies a legacy bcrypt hash, and asks for it to be replaced", async () => {
    const legacy = await bcrypt.hash("old password here", 4);
    expect(await verifyPassword("old password here", legacy)).toBe(true);
    expect(await verifyPassword("wrong password", legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash("scrypt$16384$8$1$c2FsdHNhbHQ$" + "A".repeat(43), PRODUCTION_PARAMS)).toBe(true);
  });

  it("keeps the event loop responsive while several sign-ins hash at once", async () => {
    const hash = await hashPassword("correct horse battery", PRODUCTION_PARAMS);
    const busy = await loopBusyShare(() => Promise.all(Array.from({ length: 6 }, () => verifyPassword("correct horse battery", hash))));
    // bcryptjs kept the loop busy all along (about 1); scrypt works on the thread pool meanwhile.
    expect(busy).toBeLessThan(0.3);
  });
});
