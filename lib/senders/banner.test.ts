import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages, type MessageStatus } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestCampaign } from "@/lib/testing/messaging-factories";
import { senderBanner, senderTroubleKind } from "./banner";
import { createSender } from "./collection";
import { pendingMessageCount, senderHealth } from "./health";
import { getSenderRow, updateSenderSettings } from "./service";

const whatsapp = {
  provider: "whatsapp" as const,
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  accessToken: "EAAG-secret-token-9876",
};

interface Row {
  status: MessageStatus;
  errorCode?: string;
  errorReason?: string;
  attempts?: number;
}

let clock = Date.parse("2026-11-20T09:00:00Z");

/** Messages of the sender, each created a second after the one before. */
async function addMessages(workspaceId: string, senderId: string, rows: Row[]) {
  const db = await getDb();
  const campaignId = await createTestCampaign(workspaceId);
  await db.insert(messages).values(
    rows.map((row, i) => {
      clock += 1000;
      const at = new Date(clock);
      return {
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
        attempts: row.attempts ?? (row.status === "queued" ? 0 : 1),
        sentAt: ["sent", "delivered", "read"].includes(row.status) ? at : null,
        failedAt: row.status === "failed" ? at : null,
        createdAt: at,
        updatedAt: at,
      };
    }),
  );
}

const unreachable = { status: "queued" as const, errorCode: "network_error", errorReason: "Could not reach the WhatsApp Cloud API.", attempts: 2 };
const expired = { status: "failed" as const, errorCode: "190", errorReason: "The WhatsApp access token has expired." };

describe("failing-sender banner", () => {
  it("says nothing for a sender whose last sends went out, or that has sent nothing", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    expect(await senderBanner(db, workspaceId)).toBeNull();
    const senderId = (await getSenderRow(db, workspaceId)).id;
    await addMessages(workspaceId, senderId, [expired, { status: "delivered" }, { status: "queued" }]);
    expect(await senderBanner(db, workspaceId)).toBeNull();
  });

  it("warns while messages wait for a retry because WhatsApp cannot be reached (still queued, not failed yet)", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    const senderId = (await getSenderRow(db, workspaceId)).id;
    await addMessages(workspaceId, senderId, [{ status: "read" }, unreachable, unreachable, { status: "queued" }]);
    const banner = await senderBanner(db, workspaceId);
    expect(banner).toMatchObject({
      kind: "connectivity",
      title: "Sendstream cannot reach the WhatsApp Cloud API",
      reason: "Could not reach the WhatsApp Cloud API.",
      code: "network_error",
      pendingMessages: 3,
      provider: "whatsapp",
      href: `/settings/whatsapp/${senderId}`,
    });
    expect(banner!.since).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // A send that goes out again ends the warning.
    await addMessages(workspaceId, senderId, [{ status: "sent" }]);
    expect(await senderBanner(db, workspaceId)).toBeNull();
  });

  it("names refused credentials, and ignores failures that are the recipient's", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    const senderId = (await getSenderRow(db, workspaceId)).id;
    await addMessages(workspaceId, senderId, [expired, expired, { status: "failed", errorCode: "131026", errorReason: "Undeliverable." }]);
    expect(await senderBanner(db, workspaceId)).toBeNull();
    await addMessages(workspaceId, senderId, [expired, expired, expired, expired, expired]);
    expect(await senderBanner(db, workspaceId)).toMatchObject({ kind: "credentials", reason: "The WhatsApp access token has expired.", pendingMessages: 0 });
  });

  it("is about the current sender: after a switch the old sender's failures no longer warn, and its queued messages failed", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    const old = (await getSenderRow(db, workspaceId)).id;
    await addMessages(workspaceId, old, [unreachable, unreachable]);
    expect(await pendingMessageCount(db, workspaceId, old)).toBe(2);
    expect(await senderBanner(db, workspaceId)).not.toBeNull();
    await updateSenderSettings(db, workspaceId, { provider: "sandbox" });
    expect(await senderBanner(db, workspaceId)).toBeNull();
    expect(await pendingMessageCount(db, workspaceId, old)).toBe(0);
  });

  it("counts the messages waiting for a sender only when it is failing (every page asks for the health)", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    const sender = (await getSenderRow(db, workspaceId)).id;
    await addMessages(workspaceId, sender, [{ status: "sent" }, { status: "queued" }, { status: "queued" }]);
    const healthy = await senderHealth(db, workspaceId);
    expect(healthy).toMatchObject({ failing: false });
    expect(healthy).not.toHaveProperty("pendingMessages");
    expect(await pendingMessageCount(db, workspaceId, sender)).toBe(2);
    await addMessages(workspaceId, sender, [unreachable, unreachable]);
    expect(await senderHealth(db, workspaceId)).toMatchObject({ failing: true, pendingMessages: 4 });
  });

  it("warns about any failing sender of the workspace, not only the default, naming it and counting the others", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const defaultId = (await getSenderRow(db, workspaceId)).id;
    const fr = await createSender(db, workspaceId, { ...whatsapp, name: "Brand FR" });
    const de = await createSender(db, workspaceId, { ...whatsapp, phoneNumberId: "106540352249999", name: "Brand DE" });
    await addMessages(workspaceId, defaultId, [{ status: "read" }]);
    expect(await senderBanner(db, workspaceId)).toBeNull();
    await addMessages(workspaceId, fr.id, [expired, expired]);
    expect(await senderBanner(db, workspaceId)).toMatchObject({ senderId: fr.id, senderName: "Brand FR", otherFailingSenders: 0, href: `/settings/whatsapp/${fr.id}` });
    await addMessages(workspaceId, de.id, [expired, expired]);
    expect(await senderBanner(db, workspaceId)).toMatchObject({ senderName: "Brand FR", otherFailingSenders: 1 });
    expect((await senderHealth(db, workspaceId, de.id)).failing).toBe(true);
    expect((await senderHealth(db, workspaceId)).failing).toBe(false);
  });

  it("tells the kinds of trouble apart", () => {
    expect(senderTroubleKind("190")).toBe("credentials");
    expect(senderTroubleKind("http_401")).toBe("credentials");
    expect(senderTroubleKind("10")).toBe("credentials");
    expect(senderTroubleKind("timeout")).toBe("connectivity");
    expect(senderTroubleKind("http_503")).toBe("connectivity");
    expect(senderTroubleKind("131031")).toBe("account");
    expect(senderTroubleKind("sender_not_configured")).toBe("setup");
  });
});
