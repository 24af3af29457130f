import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { triggerCampaign } from "@/lib/trigger/service";
import { createTriggerFixture, type TriggerFixture } from "@/lib/testing/trigger-factories";
import { GET, POST } from "./route";

function get(id: string, key: string | null): Promise<Response> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  return GET(new Request(`http://localhost/api/v1/messages/${id}`, { headers }), { params: Promise.resolve({ id }) });
}

async function queueMessage(fx: TriggerFixture): Promise<string> {
  const outcome = await triggerCampaign(await getDb(), {
    workspaceId: fx.workspaceId,
    apiKeyId: fx.apiKeyId,
    campaignId: fx.campaignId,
    dryRun: false,
    request: new Request("http://localhost/t", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone: "+14155552671", order: "ORD-9", first_name: "Jo" }),
    }),
  });
  return (outcome.body as { id: string }).id;
}

describe("GET /api/v1/messages/{id}", () => {
  it("returns the message's status and timestamps", async () => {
    const fx = await createTriggerFixture();
    const id = await queueMessage(fx);
    const response = await get(id, fx.apiKey);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      id,
      object: "message",
      direction: "outbound",
      status: "queued",
      source: "trigger",
      repliedAt: null,
      campaignId: fx.campaignId,
      phone: "+14155552671",
      template: { name: "order_shipped", language: "en_US" },
      text: "Order ORD-9\nHi Jo, your order ORD-9 has shipped.\nReply STOP to opt out",
      wamid: null,
      error: null,
      attempts: 0,
      nextAttemptAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failedAt: null,
    });

    const db = await getDb();
    const sentAt = new Date("2026-01-02T03:04:05.000Z");
    await db.update(messages).set({ status: "sending" }).where(eq(messages.id, id));
    expect(((await (await get(id, fx.apiKey)).json()) as { status: string }).status).toBe("queued");
    await db
      .update(messages)
      .set({ status: "failed", sentAt, failedAt: sentAt, errorCode: "131026", errorReason: "Message undeliverable" })
      .where(eq(messages.id, id));
    expect(await (await get(id, fx.apiKey)).json()).toMatchObject({
      status: "failed",
      sentAt: "2026-01-02T03:04:05.000Z",
      failedAt: "2026-01-02T03:04:05.000Z",
      error: { code: "131026", reason: "Message undeliverable" },
    });
  });

  it("404 for another workspace's message, a missing one and a malformed id; 401 without a key", async () => {
    const mine = await createTriggerFixture();
    const theirs = await createTriggerFixture();
    const foreignId = await queueMessage(theirs);
    const foreign = await get(foreignId, mine.apiKey);
    expect(foreign.status).toBe(404);
    const missing = await get("msg_doesnotexist", mine.apiKey);
    expect(missing.status).toBe(404);
    expect((await foreign.json()).detail).toBe((await missing.json()).detail);
    expect((await get("../../etc", mine.apiKey)).status).toBe(404);
    expect((await get(foreignId, null)).status).toBe(401);
  });

  it("405 with Allow: GET for other methods", async () => {
    const response = await POST(new Request("http://localhost/api/v1/messages/msg_x", { method: "POST" }), { params: Promise.resolve({ id: "msg_x" }) });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});
