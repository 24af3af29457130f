import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  // A backend runs its statement to the end after its client is gone: the hour-long sleep is ended here.
  if (process.env.DATABASE_URL) {
    const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query like '%pg_sleep(3600)%'`;
    await admin.end({ timeout: 1 });
  }
});

/** Starts lib/testing/hung-server.ts and (unless told not to) sends it a request that never ends. */
async function startHungServer(env: Record<string, string>, { hungRequest = true } = {}): Promise<{ child: ChildProcess; exited: Promise<number | null>; output: string[] }> {
  // Node itself, not tsx's command: that one relays a signal and, when its child has not answered within
  // 30 ms (a loaded machine), kills it and exits 143 on its own.
  const child = spawn(process.execPath, ["--import", "tsx", "lib/testing/hung-server.ts"], {
    cwd: root,
    // No server-side limit: the database really does not answer.
    env: { ...process.env, DATABASE_STATEMENT_TIMEOUT_MS: "0", DATABASE_QUERY_TIMEOUT_MS: "0", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const output: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", () => reject(new Error("the server exited before listening")));
  });
  if (!hungRequest) return { child, exited, output };
  // The request stays in flight: `server.close` waits for it.
  fetch(`http://127.0.0.1:${port}/`).catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return { child, exited, output };
}

const within = <T>(work: Promise<T>, ms: number) =>
  Promise.race([work, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ms))]);

describe("shutdown deadline", () => {
  it("a signalled server exits by its deadline while a request waits on the database", async () => {
    const { child, exited } = await startHungServer({ HUNG_SERVER_DEADLINE_MS: "1500" });
    child.kill("SIGTERM");
    // 1.5 s deadline; the rest is room for a loaded machine. Without the deadline it never exits.
    expect(await within(exited, 8_000)).toBe(143);
  }, 30_000);

  it("an exit asked at once (no request in flight) waits for the work outside requests to end", async () => {
    const { child, exited, output } = await startHungServer({ HUNG_SERVER_DEADLINE_MS: "8000", HUNG_SERVER_FINISH_MS: "1000" }, { hungRequest: false });
    const signalled = Date.now();
    child.kill("SIGTERM");
    expect(await within(exited, 6_000)).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1_000);
    expect(output.join("")).toContain("finished");
  }, 30_000);

  it("work outside requests that never ends does not outlast the deadline", async () => {
    const { child, exited } = await startHungServer({ HUNG_SERVER_DEADLINE_MS: "1500", HUNG_SERVER_FINISH_MS: "forever" }, { hungRequest: false });
    child.kill("SIGTERM");
    expect(await within(exited, 8_000)).toBe(143);
  }, 30_000);
});
