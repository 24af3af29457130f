// `npm run worker` as a process: it sends what is queued, and SIGTERM ends it cleanly (exit 0).
import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { triggerCampaign } from "@/lib/trigger/service";

const ROOT = path.resolve(import.meta.dirname, "../..");
const onPostgres = Boolean(process.env.DATABASE_URL);

function startWorker(env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "lib/engine/worker-main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      VITEST: undefined,
      NODE_ENV: "production",
      AUTH_SECRET: "worker-test-secret-0123456789abcdef0123456789",
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? "be0c".repeat(16),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

describe("the worker process", () => {
  it.skipIf(!onPostgres)("sends queued messages and exits 0 on SIGTERM", async () => {
    const fx = await createTriggerFixture();
    const db = await getDb();
    const outcome = await triggerCampaign(db, {
      workspaceId: fx.workspaceId,
      apiKeyId: fx.apiKeyId,
      campaignId: fx.campaignId,
      request: new Request("http://localhost/api/campaigns/x/trigger", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone: "+14155550123", first_name: "Ada", order: "A-1" }),
      }),
      dryRun: false,
    });
    expect(outcome.status).toBe(202);
    const id = (outcome.body as { id: string }).id;

    const worker = startWorker({ DATABASE_URL: process.env.DATABASE_URL });
    const status = async () => (await db.select({ status: messages.status }).from(messages).where(eq(messages.id, id)))[0]?.status;
    const sent = await waitFor(async () => !["queued", "sending"].includes((await status()) ?? "queued"), 60_000);
    expect(sent, worker.output()).toBe(true);
    expect(worker.output()).toContain("[worker] dispatching");

    const stoppedAt = Date.now();
    worker.child.kill("SIGTERM");
    expect(await worker.exited, worker.output()).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(worker.output()).toContain("[worker] stopped");
  }, 120_000);

  it("refuses the embedded database (it belongs to the web server)", async () => {
    const worker = startWorker({ DATABASE_URL: "", PGLITE_DIR: "memory://" });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain("needs Postgres");
  }, 60_000);
});
