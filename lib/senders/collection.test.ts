import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, campaigns, messages, senders } from "@/db/schema";
import { createCampaign, getCampaign, updateCampaign } from "@/lib/campaigns/service";
import { toApiError } from "@/lib/http/problem";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage } from "@/lib/testing/messaging-factories";
import { createSender, deleteSender, getSenderResource, listSenders, setDefaultSender, updateSender } from "./collection";
import { getSenderRow } from "./service";

const brandFr = {
  provider: "whatsapp" as const,
  name: "Brand FR",
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  accessToken: "EAAG-secret-token-9876",
  appSecret: "app-secret-abcd",
};

async function defaults(workspaceId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ id: senders.id }).from(senders).where(and(eq(senders.workspaceId, workspaceId), eq(senders.isDefault, true)));
  return rows.map((row) => row.id);
}

describe("the senders collection", () => {
  it("starts with the sandbox as the default, adds numbers without returning their secrets, and pages with a cursor", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const first = await listSenders(db, workspaceId);
    expect(first.data).toEqual([expect.objectContaining({ object: "sender", provider: "sandbox", name: "Sandbox", isDefault: true, status: "connected" })]);

    const added = await createSender(db, workspaceId, brandFr);
    // One number is one sender.
    await expect(createSender(db, workspaceId, { ...brandFr, name: "Again" }).catch(toApiError)).resolves.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ path: "phoneNumberId", code: "duplicate" })],
    });
    expect(added).toMatchObject({ name: "Brand FR", provider: "whatsapp", isDefault: false, status: "untested", configured: true, credentials: { accessToken: true, appSecret: true, verifyToken: false } });
    expect(JSON.stringify(added)).not.toMatch(/secret-token|abcd|9876/);
    await createSender(db, workspaceId, { provider: "sandbox", name: "Test number" });

    const page1 = await listSenders(db, workspaceId, { limit: 2 });
    expect(page1.data.map((s) => s.name)).toEqual(["Sandbox", "Brand FR"]);
    const page2 = await listSenders(db, workspaceId, { limit: 2, cursor: page1.nextCursor! });
    expect(page2).toEqual({ data: [expect.objectContaining({ name: "Test number" })], nextCursor: null });
    await expect(listSenders(db, workspaceId, { cursor: "nonsense" }).catch(toApiError)).resolves.toMatchObject({ status: 422 });
  });

  it("keeps exactly one default: making another the default takes it from the previous one", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const sandbox = await getSenderRow(db, workspaceId);
    const fr = await createSender(db, workspaceId, { ...brandFr, isDefault: true });
    expect(await defaults(workspaceId)).toEqual([fr.id]);
    expect((await getSenderResource(db, workspaceId, sandbox.id)).isDefault).toBe(false);
    await updateSender(db, workspaceId, sandbox.id, { isDefault: true, name: "Sandbox (tests)" });
    expect(await defaults(workspaceId)).toEqual([sandbox.id]);
    await setDefaultSender(db, workspaceId, fr.id);
    expect(await defaults(workspaceId)).toEqual([fr.id]);
    // "Not default" is not a state one sets: another sender becomes the default.
    await expect(updateSender(db, workspaceId, fr.id, { isDefault: false as never }).catch(toApiError)).resolves.toMatchObject({ status: 422 });
    const actions = await db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.workspaceId, workspaceId));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(["sender.created", "sender.default_changed", "sender.renamed"]));
  });

  it("answers 404 for another workspace's sender, and campaigns may not name it", async () => {
    const db = await getDb();
    const mine = await createTestAccount();
    const theirs = await createTestAccount();
    const foreign = await createSender(db, theirs.workspaceId, brandFr);
    await expect(getSenderResource(db, mine.workspaceId, foreign.id).catch(toApiError)).resolves.toMatchObject({ status: 404 });
    await expect(updateSender(db, mine.workspaceId, foreign.id, { name: "Mine" }).catch(toApiError)).resolves.toMatchObject({ status: 404 });
    await expect(deleteSender(db, mine.workspaceId, foreign.id).catch(toApiError)).resolves.toMatchObject({ status: 404 });
    await expect(createCampaign(db, mine.workspaceId, { name: "X", senderId: foreign.id }).catch(toApiError)).resolves.toMatchObject({ status: 404 });
    const campaign = await createCampaign(db, mine.workspaceId, { name: "Y" });
    await expect(updateCampaign(db, mine.workspaceId, campaign.id, { senderId: foreign.id }).catch(toApiError)).resolves.toMatchObject({ status: 404 });
  });

  it("gives new campaigns the default sender, or the one they name", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const sandbox = await getSenderRow(db, workspaceId);
    const fr = await createSender(db, workspaceId, brandFr);
    expect((await createCampaign(db, workspaceId, { name: "Default" })).senderId).toBe(sandbox.id);
    expect((await createCampaign(db, workspaceId, { name: "Bulk FR", kind: "bulk", senderId: fr.id })).senderId).toBe(fr.id);
    const moved = await createCampaign(db, workspaceId, { name: "Moved" });
    expect((await updateCampaign(db, workspaceId, moved.id, { senderId: fr.id })).senderId).toBe(fr.id);
  });

  it("refuses to delete the default or a sender campaigns use, naming them; a replacement takes them over", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const sandbox = await getSenderRow(db, workspaceId);
    const fr = await createSender(db, workspaceId, brandFr);
    const spare = await createSender(db, workspaceId, { provider: "sandbox", name: "Spare" });

    await expect(deleteSender(db, workspaceId, sandbox.id).catch(toApiError)).resolves.toMatchObject({ status: 409, code: "sender_is_default" });
    const campaign = await createCampaign(db, workspaceId, { name: "Winter sale", senderId: fr.id });
    const refused = toApiError(await deleteSender(db, workspaceId, fr.id).catch((e: unknown) => e));
    expect(refused).toMatchObject({ status: 409, code: "sender_in_use" });
    expect(refused.detail).toContain("“Winter sale”");
    await expect(deleteSender(db, workspaceId, fr.id, { replacement: fr.id }).catch(toApiError)).resolves.toMatchObject({ status: 422 });

    // A queued message of the deleted sender fails; it is never sent by another one.
    const queued = await createTestMessage({ workspaceId, campaignId: campaign.id, senderId: fr.id, status: "queued" });
    await deleteSender(db, workspaceId, fr.id, { replacement: spare.id });
    expect((await getCampaign(db, workspaceId, campaign.id)).senderId).toBe(spare.id);
    const [message] = await db.select().from(messages).where(eq(messages.id, queued));
    expect(message).toMatchObject({ status: "failed", errorCode: "sender_changed", senderId: fr.id });

    // The default goes with a replacement, which becomes the default.
    await deleteSender(db, workspaceId, sandbox.id, { replacement: spare.id });
    expect(await defaults(workspaceId)).toEqual([spare.id]);
    const left = await db.select({ id: senders.id }).from(senders).where(eq(senders.workspaceId, workspaceId));
    expect(left.map((s) => s.id)).toEqual([spare.id]);
    // The last sender is the default: it has no replacement left.
    await expect(deleteSender(db, workspaceId, spare.id).catch(toApiError)).resolves.toMatchObject({ status: 409, code: "sender_is_default" });
  });

  it("changes a number's credentials by the settings rules: a new number is a new id, its campaigns follow, its queued messages fail", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const fr = await createSender(db, workspaceId, brandFr);
    const campaign = await createCampaign(db, workspaceId, { name: "FR", senderId: fr.id });
    const queued = await createTestMessage({ workspaceId, campaignId: campaign.id, senderId: fr.id, status: "queued" });
    const renamed = await updateSender(db, workspaceId, fr.id, { accessToken: "EAAG-new-token-1111", name: "Brand France" });
    expect(renamed).toMatchObject({ id: fr.id, name: "Brand France", status: "untested" });
    const moved = await updateSender(db, workspaceId, fr.id, { phoneNumberId: "106540352249999" });
    expect(moved.id).not.toBe(fr.id);
    expect(moved).toMatchObject({ name: "Brand France", phoneNumberId: "106540352249999", wabaId: brandFr.wabaId });
    expect((await getCampaign(db, workspaceId, campaign.id)).senderId).toBe(moved.id);
    const [message] = await db.select().from(messages).where(eq(messages.id, queued));
    expect(message).toMatchObject({ status: "failed", errorCode: "sender_changed", senderId: fr.id });
    const [row] = await db.select({ senderId: campaigns.senderId }).from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(row?.senderId).toBe(moved.id);
  });
});
