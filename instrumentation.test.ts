// Starting the server with a configuration it cannot work with: the process exits 1 and names the
// variable, instead of printing "Ready" and answering every request 500.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

function startRegister(env: { NODE_ENV: "development" | "production" } & Record<string, string>, after = "") {
  const script = `import("./instrumentation.ts").then((m) => m.register()).then(() => console.log("registered"))${after}`;
  const result = spawnSync(path.join("node_modules", ".bin", "tsx"), ["--eval", script], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NEXT_RUNTIME: "nodejs", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe("server start", () => {
  it("refuses to start in production without ENCRYPTION_KEY, naming it", () => {
    const refused = startRegister({ NODE_ENV: "production", AUTH_SECRET: "a".repeat(40) });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/Sendstream cannot start\. ENCRYPTION_KEY is required in production/);
    expect(refused.stdout).not.toContain("registered");
  });

  it("refuses to start on any other invalid variable too", () => {
    const refused = startRegister({ NODE_ENV: "development", DATABASE_URL: "mysql://x" });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/);
  });

  it("registers the campaign kinds before it serves anything", () => {
    const kinds = `.then(() => { console.log("kinds:", [...(globalThis[Symbol.for("sendstream.campaign-kinds")]?.keys() ?? [])].join(",")); process.exit(0); })`;
    const started = startRegister(
      { NODE_ENV: "development", AUTH_SECRET: "a".repeat(40), PGLITE_DIR: "memory://", SENDSTREAM_SEED: "false", DISPATCHER: "off", VITEST: "true" },
      kinds,
    );
    expect(started.stderr).toBe("");
    expect(started.stdout).toContain("kinds: trigger,bulk");
  });
});
