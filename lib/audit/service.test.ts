import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, contacts } from "@/db/schema";
import { PUT as putSender } from "@/app/api/sender/route";
import { POST as deploy } from "@/app/api/v1/campaigns/[id]/deploy/route";
import { POST as pause } from "@/app/api/v1/campaigns/[id]/pause/route";
import { POST as resume } from "@/app/api/v1/campaigns/[id]/resume/route";
import { POST as archive } from "@/app/api/v1/campaigns/[id]/archive/route";
import { callRoute, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestAccount } from "@/lib/testing/factories";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { updateSenderSettings } from "@/lib/senders/service";
import { countingDb } from "@/lib/testing/counting-db";
import { listAuditEvents, missingAddressNote, recordAudit, recordMemberChange, SYSTEM_ACTOR } from "./service";

const saved = process.env.TRUSTED_PROXY_HOPS;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUSTED_PROXY_HOPS;
  else process.env.TRUSTED_PROXY_HOPS = saved;
});

/** The fixture's template is a WhatsApp one: connect a WhatsApp number so that deploy checks pass. */
async function connectWhatsApp(workspaceId: string) {
  await updateSenderSettings(await getDb(), workspaceId, { provider: "whatsapp", phoneNumberId: "1065403522", wabaId: "1022901293", accessToken: "EAAtok" });
}

async function auditOf(workspaceId: string) {
  const db = await getDb();
  const rows = await db.select().from(auditEvents).where(eq(auditEvents.workspaceId, workspaceId));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

describe("audit trail", () => {
  it("records sender credential changes with the user and the fields changed, never the secrets", async () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    const account = await createTestAccount();
    const cookie = await sessionCookie({ userId: account.id, workspaceId: account.workspaceId });
    const body = { provider: "whatsapp", phoneNumberId: "1065403522", wabaId: "1022901293", accessToken: "EAAsecret-token-1", appSecret: "app-secret-value" };
    const first = await callRoute(putSender, "PUT", "/api/sender", {
      cookie,
      body,
      headers: { ...SAME_ORIGIN, "x-forwarded-for": "10.9.9.9, 198.51.100.20", "user-agent": "Settings page" },
    });
    expect(first.status).toBe(200);
    const again = await callRoute(putSender, "PUT", "/api/sender", { cookie, body: { ...body, accessToken: "EAAsecret-token-2", appSecret: undefined }, headers: SAME_ORIGIN });
    expect(again.status).toBe(200);
    const rows = await auditOf(account.workspaceId);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      action: "sender.settings_changed",
      targetType: "sender",
      actorUserId: account.id,
      actorApiKeyId: null,
      ip: "198.51.100.20",
      userAgent: "Settings page",
      metadata: { changed: ["provider", "phoneNumberId", "wabaId", "accessToken", "appSecret"] },
    });
    expect(rows[1]!.metadata).toEqual({ changed: ["accessToken"] });
    expect(JSON.stringify(rows)).not.toMatch(/EAAsecret|app-secret-value/);
  });

  it("records deploy, pause, resume and archive with the key or the user that acted", async () => {
    const fixture = await createTriggerFixture({ status: "draft" });
    await connectWhatsApp(fixture.workspaceId);
    const cookie = await sessionCookie({ userId: fixture.userId, workspaceId: fixture.workspaceId });
    const params = { id: fixture.campaignId };
    const url = (action: string) => `/api/v1/campaigns/${fixture.campaignId}/${action}`;
    expect((await callRoute(deploy, "POST", url("deploy"), { key: fixture.apiKey, params })).status).toBe(200);
    expect((await callRoute(pause, "POST", url("pause"), { cookie, params, headers: SAME_ORIGIN })).status).toBe(200);
    expect((await callRoute(pause, "POST", url("pause"), { cookie, params, headers: SAME_ORIGIN })).status).toBe(200);
    expect((await callRoute(resume, "POST", url("resume"), { key: fixture.apiKey, params })).status).toBe(200);
    expect((await callRoute(archive, "POST", url("archive"), { cookie, params, headers: SAME_ORIGIN })).status).toBe(200);
    const rows = (await auditOf(fixture.workspaceId)).filter((r) => r.targetType === "campaign");
    // Pausing a paused campaign changes nothing and is not recorded.
    expect(rows.map((r) => [r.action, r.actorApiKeyId, r.actorUserId])).toEqual([
      ["campaign.deployed", fixture.apiKeyId, null],
      ["campaign.paused", null, fixture.userId],
      ["campaign.resumed", fixture.apiKeyId, null],
      ["campaign.archived", null, fixture.userId],
    ]);
    expect(rows[0]).toMatchObject({ targetType: "campaign", targetId: fixture.campaignId, metadata: { from: "draft", to: "active", version: 2 } });
  });

  it("lists the workspace's rows newest first in keyset pages, with who acted, and nothing of other workspaces", async () => {
    const db = await getDb();
    const fixture = await createTriggerFixture({ status: "active" });
    await connectWhatsApp(fixture.workspaceId);
    const other = await createTestAccount();
    const cookie = await sessionCookie({ userId: fixture.userId, workspaceId: fixture.workspaceId });
    await callRoute(pause, "POST", `/api/v1/campaigns/${fixture.campaignId}/pause`, { key: fixture.apiKey, params: { id: fixture.campaignId } });
    await callRoute(resume, "POST", `/api/v1/campaigns/${fixture.campaignId}/resume`, { cookie, params: { id: fixture.campaignId }, headers: SAME_ORIGIN });
    await recordMemberChange(db, { workspaceId: fixture.workspaceId, actor: SYSTEM_ACTOR, change: "added", memberUserId: other.id, email: other.email, role: "member" });
    await recordMemberChange(db, { workspaceId: other.workspaceId, actor: SYSTEM_ACTOR, change: "removed", memberUserId: fixture.userId });

    const first = await listAuditEvents(db, fixture.workspaceId, { limit: 2 });
    expect(first.data.map((e) => e.action)).toEqual(["member.added", "campaign.resumed"]);
    expect(first.data[0]).toMatchObject({ actor: null, targetType: "user", targetId: other.id, metadata: { email: other.email, role: "member" } });
    expect(first.data[1]!.actor).toMatchObject({ type: "user", id: fixture.userId, name: "Test User" });
    expect(first.nextCursor).not.toBeNull();
    const second = await listAuditEvents(db, fixture.workspaceId, { limit: 2, cursor: first.nextCursor });
    expect(second.data.map((e) => e.action)).toEqual(["campaign.paused", "sender.settings_changed"]);
    expect(second.data[0]!.actor).toMatchObject({ type: "api_key", id: fixture.apiKeyId, name: "Test key" });
    expect(second.data[1]!.actor).toBeNull();
    expect(second.nextCursor).toBeNull();

    const others = await listAuditEvents(db, other.workspaceId);
    expect(others.data.map((e) => e.action)).toEqual(["member.removed"]);
    await expect(listAuditEvents(db, fixture.workspaceId, { cursor: "not-a-cursor" })).rejects.toMatchObject({ status: 400 });
  });

  it("names each target (now, or as recorded once it is gone) and says why an address is missing, in one query", async () => {
    const db = await getDb();
    const fixture = await createTriggerFixture({ status: "active" });
    const user = { userId: fixture.userId, apiKeyId: null, ip: null, userAgent: null };
    await db.insert(contacts).values({ id: "ctc_audit_named", workspaceId: fixture.workspaceId, phoneNumber: "+15125550142", name: "Sofía López" });
    await db.insert(contacts).values({ id: "ctc_audit_phone", workspaceId: fixture.workspaceId, phoneNumber: "+15125550143" });
    await recordAudit(db, { workspaceId: fixture.workspaceId, actor: SYSTEM_ACTOR, action: "contact.opted_out", targetType: "contact", targetId: "ctc_audit_named" });
    await recordAudit(db, { workspaceId: fixture.workspaceId, actor: user, action: "contact.opted_in", targetType: "contact", targetId: "ctc_audit_phone" });
    await recordAudit(db, { workspaceId: fixture.workspaceId, actor: { ...user, ip: "203.0.113.9" }, action: "campaign.paused", targetType: "campaign", targetId: fixture.campaignId });
    await recordAudit(db, { workspaceId: fixture.workspaceId, actor: user, action: "api_key.created", targetType: "api_key", targetId: fixture.apiKeyId, metadata: { name: "Old name" } });
    await recordAudit(db, { workspaceId: fixture.workspaceId, actor: user, action: "api_key.deleted", targetType: "api_key", targetId: "key_gone", metadata: { name: "Deleted key" } });
    // Another workspace's campaign with the same id is never named.
    const other = await createTestAccount();
    await recordAudit(db, { workspaceId: other.workspaceId, actor: SYSTEM_ACTOR, action: "campaign.paused", targetType: "campaign", targetId: fixture.campaignId });

    process.env.TRUSTED_PROXY_HOPS = "0";
    const counting = await countingDb();
    const { data } = await listAuditEvents(counting.db, fixture.workspaceId);
    expect(counting.statements).toHaveLength(1);
    const byAction = new Map(data.map((e) => [e.action, e]));
    expect(byAction.get("contact.opted_out")).toMatchObject({ targetName: "Sofía López", targetDetail: "+15125550142", ip: null, ipNote: expect.stringContaining("made by the app itself") });
    expect(byAction.get("contact.opted_in")).toMatchObject({ targetName: "+15125550143", targetDetail: null, ipNote: expect.stringContaining("TRUSTED_PROXY_HOPS is 0") });
    expect(byAction.get("campaign.paused")).toMatchObject({ targetName: "Order shipped", ip: "203.0.113.9", ipNote: null });
    expect(byAction.get("api_key.created")).toMatchObject({ targetName: "Test key" });
    expect(byAction.get("api_key.deleted")).toMatchObject({ targetName: "Deleted key" });
    const [foreign] = (await listAuditEvents(db, other.workspaceId)).data;
    expect(foreign).toMatchObject({ targetName: null });
    expect(missingAddressNote({ type: "user", id: "usr_1", name: "A", email: "a@example.com" }, 1)).toContain("did not come through the trusted proxy");
  });
});
