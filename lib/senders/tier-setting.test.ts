import net from "node:net";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents } from "@/db/schema";
import { toApiError } from "@/lib/http/problem";
import { createTestAccount } from "@/lib/testing/factories";
import { fakeGraphForFile } from "@/lib/channels/whatsapp/testing";
import { getSender } from "./service";
import { saveSenderSettings, testSenderForm } from "./tier-setting";

const fakeGraph = fakeGraphForFile();

const form = {
  provider: "whatsapp" as const,
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  accessToken: "EAAG-secret-token-9876",
  appSecret: "",
  verifyToken: "",
};

async function problemOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  return toApiError(error);
}

function answerPhoneNumber(fields: Record<string, unknown>) {
  fakeGraph().handle((req) => (req.path === `/v23.0/${form.phoneNumberId}` ? { body: { id: form.phoneNumberId, ...fields } } : { status: 404, body: {} }));
}

describe("one validation for Save and Test connection", () => {
  it("refuses a Business Account ID that is not numeric in both, with the same field error", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const before = fakeGraph().requests.length;
    const saved = await problemOf(saveSenderSettings(db, workspaceId, { ...form, wabaId: "abc" }));
    const tested = await problemOf(testSenderForm(db, workspaceId, { ...form, wabaId: "abc" }));
    expect(saved.code).toBe("validation_failed");
    expect(tested.code).toBe("validation_failed");
    expect(tested.errors).toEqual(saved.errors);
    expect(saved.errors).toEqual([expect.objectContaining({ path: "wabaId" })]);
    expect(fakeGraph().requests.length).toBe(before);
    expect((await getSender(db, workspaceId)).provider).toBe("sandbox");
  });

  it("explains the phone number ID the same way its hint does", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const problem = await problemOf(testSenderForm(db, workspaceId, { ...form, phoneNumberId: "+1 555 0100" }));
    expect(problem.errors).toEqual([expect.objectContaining({ path: "phoneNumberId", message: expect.stringContaining("not the phone number itself") })]);
  });
});

describe("messaging tier", () => {
  it("saves the chosen limit with the form, audits the change, and clears it with Unknown", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    expect((await saveSenderSettings(db, workspaceId, { ...form, messagingTier: "TIER_2K" })).messagingTier).toBe("TIER_2K");
    // Left out: unchanged.
    expect((await saveSenderSettings(db, workspaceId, { ...form, accessToken: "" })).messagingTier).toBe("TIER_2K");
    expect((await saveSenderSettings(db, workspaceId, { ...form, messagingTier: null })).messagingTier).toBeNull();
    const rows = await db
      .select({ metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, workspaceId), eq(auditEvents.action, "sender.settings_changed")));
    const tierChanges = rows.map((row) => row.metadata as { changed: string[]; messagingTier?: string | null }).filter((m) => m.changed.includes("messagingTier"));
    expect(tierChanges.map((m) => m.messagingTier).sort()).toEqual([null, "TIER_2K"].sort());
  });

  it("refuses a limit that is not on the list, writing nothing", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const problem = await problemOf(saveSenderSettings(db, workspaceId, { ...form, messagingTier: "TIER_1K" as never }));
    expect(problem.errors).toEqual([expect.objectContaining({ path: "messagingTier" })]);
    expect((await getSender(db, workspaceId)).provider).toBe("sandbox");
  });

  it("takes the limit WhatsApp reports on Test connection", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await saveSenderSettings(db, workspaceId, { ...form, messagingTier: "TIER_250" });
    answerPhoneNumber({ display_phone_number: "+1 555-0100", whatsapp_business_manager_messaging_limit: "TIER_100K" });
    const result = await testSenderForm(db, workspaceId, { ...form, accessToken: "" });
    expect(result).toMatchObject({ ok: true, messagingTier: "TIER_100K" });
    expect((await getSender(db, workspaceId)).messagingTier).toBe("TIER_100K");
  });

  it("keeps the limit chosen by hand when WhatsApp reports none it knows", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await saveSenderSettings(db, workspaceId, { ...form, messagingTier: "TIER_10K" });
    answerPhoneNumber({ display_phone_number: "+1 555-0100", whatsapp_business_manager_messaging_limit: "TIER_SOMETHING_NEW" });
    const result = await testSenderForm(db, workspaceId, form);
    expect(result).toMatchObject({ ok: true, messagingTier: null, displayPhoneNumber: "+1 555-0100" });
    expect(await getSender(db, workspaceId)).toMatchObject({ messagingTier: "TIER_10K", displayPhoneNumber: "+1 555-0100" });
  });

  it("reads a retired tier as the current tier at or below it", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await saveSenderSettings(db, workspaceId, { ...form, messagingTier: "TIER_10K" });
    answerPhoneNumber({ messaging_limit_tier: "TIER_1K" });
    expect(await testSenderForm(db, workspaceId, form)).toMatchObject({ ok: true, messagingTier: "TIER_250" });
    expect((await getSender(db, workspaceId)).messagingTier).toBe("TIER_250");
  });
});

describe("Test connection when WhatsApp cannot be reached", () => {
  it("says the connection was refused instead of 'fetch failed'", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const previous = process.env.WHATSAPP_GRAPH_URL;
    process.env.WHATSAPP_GRAPH_URL = `http://127.0.0.1:${closedPort}`;
    try {
      const result = await testSenderForm(db, workspaceId, form);
      expect(result).toMatchObject({
        ok: false,
        error: { kind: "network", message: "Could not reach the WhatsApp Cloud API.", details: expect.stringMatching(/refused the connection.*\(ECONNREFUSED\)$/) },
      });
      expect(JSON.stringify(result)).not.toContain("fetch failed");
    } finally {
      process.env.WHATSAPP_GRAPH_URL = previous;
    }
  });
});
