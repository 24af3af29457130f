import { eq } from "drizzle-orm";
import { newId } from "@/lib/crypto/random";
import { createTestCampaign } from "@/lib/testing/messaging-factories";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages, senders } from "@/db/schema";
import { toApiError } from "@/lib/http/problem";
import { createTestAccount } from "@/lib/testing/factories";
import { graphError } from "@/lib/channels/whatsapp/testing";
import { fakeGraphForFile } from "@/lib/channels/whatsapp/testing";
import { pendingMessageCount, senderHealth } from "./health";
import { getSender, getSenderRow, loadSenderCredentials, testSenderConnection, updateSenderSettings } from "./service";

const fakeGraph = fakeGraphForFile();

const whatsapp = {
  provider: "whatsapp" as const,
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  accessToken: "EAAG-secret-token-9876",
  appSecret: "app-secret-abcd",
  verifyToken: "verify-me-1234",
};

describe("sender settings", () => {
  it("starts as the sandbox with an unlimited tier", async () => {
    const { workspaceId } = await createTestAccount();
    expect(await getSender(await getDb(), workspaceId)).toMatchObject({
      provider: "sandbox",
      configured: true,
      accessToken: null,
      messagingTierLabel: "Sandbox — unlimited",
      throughputPerSecond: 80,
    });
  });

  it("stores WhatsApp secrets encrypted, shows them masked and keeps them when left blank", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const view = await updateSenderSettings(db, workspaceId, whatsapp);
    expect(view).toMatchObject({ provider: "whatsapp", configured: true, accessToken: "••••9876", appSecret: "••••abcd", verifyToken: "••••1234" });
    expect(JSON.stringify(view)).not.toContain("secret-token");

    const [row] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId));
    expect(row?.accessTokenEncrypted).toBeTruthy();
    expect(row?.accessTokenEncrypted).not.toContain("EAAG");

    await updateSenderSettings(db, workspaceId, { ...whatsapp, accessToken: "", appSecret: undefined, verifyToken: "  " });
    const credentials = await loadSenderCredentials(db, workspaceId);
    expect(credentials).toMatchObject({ accessToken: whatsapp.accessToken, appSecret: whatsapp.appSecret, verifyToken: whatsapp.verifyToken });

    // Back to the sandbox keeps the credentials for later.
    expect((await updateSenderSettings(db, workspaceId, { provider: "sandbox" })).provider).toBe("sandbox");
    expect((await loadSenderCredentials(db, workspaceId)).accessToken).toBe(whatsapp.accessToken);
  });

  it("requires the access token the first time and valid ids", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await expect(updateSenderSettings(db, workspaceId, { ...whatsapp, accessToken: "" })).rejects.toMatchObject({ status: 422 });
    // The ids are checked by the input schema (a ZodError); routes answer it as this problem.
    await expect(updateSenderSettings(db, workspaceId, { ...whatsapp, phoneNumberId: "abc" }).catch(toApiError)).resolves.toMatchObject({
      status: 422,
      code: "validation_failed",
      errors: [expect.objectContaining({ path: "phoneNumberId" })],
    });
    expect((await getSender(db, workspaceId)).provider).toBe("sandbox");
  });

  it("tests the connection against the Graph API and remembers the limits", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    fakeGraph().handle((req) =>
      req.path === `/v23.0/${whatsapp.phoneNumberId}`
        ? { body: { display_phone_number: "+1 555-0100", verified_name: "Demo", throughput: { level: "STANDARD" }, whatsapp_business_manager_messaging_limit: "TIER_10K" } }
        : { status: 404, body: {} },
    );
    const result = await testSenderConnection(db, workspaceId, { phoneNumberId: whatsapp.phoneNumberId });
    expect(result).toMatchObject({ ok: true, displayPhoneNumber: "+1 555-0100", throughputPerSecond: 80, messagingTierLabel: "10,000 customers / 24 h" });
    expect(fakeGraph().requests.at(-1)!.headers.authorization).toBe(`Bearer ${whatsapp.accessToken}`);
    expect(await getSender(db, workspaceId)).toMatchObject({ displayPhoneNumber: "+1 555-0100", messagingTier: "TIER_10K" });
  });

  it("stores a number's quality and status, and 20 messages a second for a number also on the WhatsApp Business app", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    expect((await getSender(db, workspaceId)).status).toBe("untested");
    fakeGraph().handle(() => ({ body: { display_phone_number: "+1 555-0100", quality_rating: "GREEN", throughput: { level: "STANDARD" }, is_on_biz_app: true } }));
    expect(await testSenderConnection(db, workspaceId, { phoneNumberId: whatsapp.phoneNumberId })).toMatchObject({ ok: true, throughputPerSecond: 20 });
    expect(await getSender(db, workspaceId)).toMatchObject({ throughputPerSecond: 20, qualityRating: "GREEN", status: "connected" });
    fakeGraph().handle(() => graphError(190, "Error validating access token: Session has expired.", 401));
    await testSenderConnection(db, workspaceId, { phoneNumberId: whatsapp.phoneNumberId });
    expect((await getSender(db, workspaceId)).status).toBe("disconnected");
  });

  it("reports the exact Graph error", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    fakeGraph().handle(() => graphError(190, "Error validating access token: Session has expired.", 401));
    const result = await testSenderConnection(db, workspaceId, { phoneNumberId: "106540352242922", accessToken: "EAAold" });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: "graph",
        message: "(#190) Error validating access token: Session has expired.",
        code: 190,
        subcode: null,
        details: "Error validating access token: Session has expired.",
        httpStatus: 401,
      },
    });
  });
});

describe("sender identity and health", () => {
  async function addMessages(workspaceId: string, senderId: string, rows: { status: "queued" | "sent" | "failed"; errorCode?: string; errorReason?: string }[]) {
    const db = await getDb();
    const campaignId = await createTestCampaign(workspaceId);
    const now = Date.now();
    await db.insert(messages).values(
      rows.map((row, i) => ({
        id: newId("msg"),
        workspaceId,
        campaignId,
        senderId,
        phoneNumber: `+1415555${String(i).padStart(4, "0")}`,
        templateName: "order_update",
        templateLanguage: "en_US",
        renderedText: "Hi",
        status: row.status,
        errorCode: row.errorCode ?? null,
        errorReason: row.errorReason ?? null,
        sentAt: row.status === "sent" ? new Date(now - 60_000 + i) : null,
        failedAt: row.status === "failed" ? new Date(now - 60_000 + i) : null,
        createdAt: new Date(now - 60_000 + i),
      })),
    );
  }

  it("keeps the sender's id for a new token, and gives it a new one for a new phone number", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    const first = (await getSenderRow(db, workspaceId)).id;
    await updateSenderSettings(db, workspaceId, { ...whatsapp, accessToken: "EAAG-another-token-1234" });
    expect((await getSenderRow(db, workspaceId)).id).toBe(first);
    await addMessages(workspaceId, first, [{ status: "queued" }, { status: "sent" }]);
    expect(await pendingMessageCount(db, workspaceId, first)).toBe(1);
    await updateSenderSettings(db, workspaceId, { ...whatsapp, phoneNumberId: "106540352249999" });
    const second = await getSenderRow(db, workspaceId);
    expect(second.id).not.toBe(first);
    expect(second).toMatchObject({ workspaceId, provider: "whatsapp", phoneNumberId: "106540352249999" });
    const rows = await db.select().from(messages).where(eq(messages.senderId, first));
    expect(rows.find((r) => r.status === "failed")).toMatchObject({ errorCode: "sender_changed" });
    expect(rows.find((r) => r.status === "failed")!.errorReason).toMatch(/from WhatsApp number 106540352242922 to WhatsApp number 106540352249999/);
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(1);
    expect(await pendingMessageCount(db, workspaceId, first)).toBe(0);
  });

  it("reports a sender whose last sends all failed for a reason of the sender, not one with ordinary failures", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const senderId = (await getSenderRow(db, workspaceId)).id;
    await addMessages(workspaceId, senderId, [
      { status: "sent" },
      ...Array.from({ length: 5 }, () => ({ status: "failed" as const, errorCode: "131026", errorReason: "Undeliverable." })),
    ]);
    expect(await senderHealth(db, workspaceId)).toMatchObject({ failing: false, reason: null });
    await addMessages(
      workspaceId,
      senderId,
      Array.from({ length: 5 }, () => ({ status: "failed" as const, errorCode: "190", errorReason: "The WhatsApp access token has expired." })),
    );
    const health = await senderHealth(db, workspaceId);
    expect(health).toMatchObject({ senderId, failing: true, reason: "The WhatsApp access token has expired.", pendingMessages: 0 });
    expect(health.since).toMatch(/^\d{4}-/);
  });
});
