import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { inboundMessages, messages, senders } from "@/db/schema";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow } from "@/lib/testing/logs-factories";
import { recordInboundMessages } from "./record";
import { listContactMessages, type TimelineMessage } from "./timeline";

const wamid = () => `wamid.T${randomBase62(16)}`;

async function setup() {
  const db = await getDb();
  const { workspaceId } = await createTestAccount();
  const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId));
  const phone = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
  const campaign = await insertCampaignRow(workspaceId, { name: "Orders" });
  // The first inbound message creates the contact.
  const first = await recordInboundMessages(db, { workspaceId, senderId: sender!.id }, [
    { providerMessageId: wamid(), from: phone, profileName: "Ann", at: new Date(), kind: "text", text: "Hi", payload: null, media: null, location: null, reaction: null, contextProviderMessageId: null },
  ]);
  const contactId = first.messages[0]!.contactId!;
  return { db, workspaceId, senderId: sender!.id, phone, campaign, contactId, firstInboundId: first.messages[0]!.id };
}

const ids = (page: TimelineMessage[]) => page.map((message) => message.id);

describe("contact timeline", () => {
  it("lists both directions newest first under one cursor, ties broken by id, each with its direction", async () => {
    const { db, workspaceId, senderId, phone, campaign, contactId, firstInboundId } = await setup();
    const same = new Date("2030-01-01T00:00:00.000Z");
    const out: (typeof messages.$inferSelect)[] = [];
    for (const status of ["delivered", "read"] as const) {
      const [row] = await db
        .insert(messages)
        .values({ id: newId("msg"), workspaceId, campaignId: campaign.id, contactId, phoneNumber: phone, templateName: "t", templateLanguage: "en", renderedText: "Your order", status, providerMessageId: wamid(), createdAt: same })
        .returning();
      out.push(row!);
    }
    const reply = await recordInboundMessages(db, { workspaceId, senderId }, [
      {
        providerMessageId: wamid(),
        from: phone,
        profileName: null,
        at: same,
        kind: "media",
        text: null,
        payload: null,
        media: { id: "m1", mimeType: "image/png", caption: null, filename: null, kind: "image" },
        location: null,
        reaction: null,
        contextProviderMessageId: out[0]!.providerMessageId,
      },
    ]);
    await db.update(inboundMessages).set({ createdAt: same }).where(eq(inboundMessages.id, reply.messages[0]!.id));

    const all = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listContactMessages(db, workspaceId, phone, { limit: 1, cursor });
      all.push(...page.data);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(all).toHaveLength(4);
    expect(all.at(-1)!.id).toBe(firstInboundId);
    expect(new Set(ids(all.slice(0, 3)))).toEqual(new Set([out[0]!.id, out[1]!.id, reply.messages[0]!.id]));
    const inbound = all.find((message) => message.direction === "inbound" && message.kind === "media");
    expect(inbound).toMatchObject({
      object: "message",
      direction: "inbound",
      contactId,
      senderId,
      media: { mimeType: "image/png", kind: "image" },
      replyToMessageId: out[0]!.id,
      campaignId: campaign.id,
      campaignName: "Orders",
    });
    expect(all.find((message) => message.id === out[1]!.id)).toMatchObject({ direction: "outbound", status: "read", campaignName: "Orders" });

    const onePage = await listContactMessages(db, workspaceId, contactId, { limit: 10 });
    expect(ids(onePage.data)).toEqual(ids(all));
    expect(onePage.nextCursor).toBeNull();
    expect((await listContactMessages(db, workspaceId, contactId, { direction: "outbound" })).data.map((m) => m.direction)).toEqual(["outbound", "outbound"]);
    expect((await listContactMessages(db, workspaceId, contactId, { direction: "inbound" })).data.map((m) => m.id)).toEqual([reply.messages[0]!.id, firstInboundId]);
  });

  it("another workspace's contact is 404; a foreign cursor is 422", async () => {
    const { db, contactId, workspaceId } = await setup();
    const stranger = await createTestAccount();
    await expect(listContactMessages(db, stranger.workspaceId, contactId, {})).rejects.toMatchObject({ code: "not_found" });
    await expect(listContactMessages(db, workspaceId, contactId, { cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({ status: 422 });
  });
});
