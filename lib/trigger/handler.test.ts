// Web-only mode: with DISPATCHER=off an accepted trigger is stored queued and nothing is sent after
// the response (a worker or the cron route sends); by default the request starts the send itself.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { drainInProgress } from "@/lib/jobs/soon";
import { stopDispatching } from "@/lib/messaging/dispatch";
import { triggerPost } from "./handler";

const saved = process.env.DISPATCHER;
afterEach(() => {
  if (saved === undefined) delete process.env.DISPATCHER;
  else process.env.DISPATCHER = saved;
});

async function accept(): Promise<string> {
  const fx = await createTriggerFixture();
  const response = await triggerPost(
    new Request(`http://localhost/api/campaigns/${fx.campaignId}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": fx.apiKey },
      body: JSON.stringify({ phone: "+14155552671", order: "ORD-1", first_name: "Jane" }),
    }),
    { params: Promise.resolve({ id: fx.campaignId }) },
  );
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

async function statusOf(id: string): Promise<string | undefined> {
  const db = await getDb();
  return (await db.select({ status: messages.status }).from(messages).where(eq(messages.id, id)))[0]?.status;
}

/** Waits for the send a request starts after its response (outside a request scope: on the next tick). */
async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await drainInProgress();
}

describe("after-response dispatch", () => {
  it("is off with DISPATCHER=off: the message stays queued for a worker", async () => {
    process.env.DISPATCHER = "off";
    await settled();
    const id = await accept();
    await new Promise((resolve) => setImmediate(resolve));
    expect(drainInProgress()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await settled();
    expect(await statusOf(id)).toBe("queued");
  });

  it("is on by default: the request starts the send", async () => {
    delete process.env.DISPATCHER;
    await settled();
    await accept();
    await new Promise((resolve) => setImmediate(resolve));
    expect(drainInProgress()).not.toBeNull();
    // Other files' queued messages may be due too on a shared database: stop rather than drain them all.
    await stopDispatching();
  }, 60_000);
});
