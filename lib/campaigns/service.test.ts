import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { encodeCursor } from "@/db/cursor";
import { campaigns, contacts, messages, senders } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { ApiError } from "@/lib/http/errors";
import { toApiError } from "@/lib/http/problem";
import { createTestAccount } from "@/lib/testing/factories";
import { listTemplates } from "@/lib/templates/service";
import { getDeploymentDetails } from "./deployment";
import { archiveCampaign, deployCampaign, pauseCampaign, resumeCampaign } from "./lifecycle";
import { createCampaign, getCampaign, listCampaigns, listKnownAttributes, updateCampaign, type CampaignPage } from "./service";

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

const orderMapping = {
  phoneField: "phone",
  fields: [
    { field: "name", attribute: "name", type: "string" as const, required: true },
    { field: "order_number", attribute: "orderNumber", type: "string" as const, required: true },
  ],
};

describe("campaign service", () => {
  let workspaceId: string;
  let orderTemplateId: string;
  let pendingTemplateId: string;

  beforeAll(async () => {
    const account = await createTestAccount();
    workspaceId = account.workspaceId;
    const list = await listTemplates(await getDb(), workspaceId);
    orderTemplateId = list.find((t) => t.name === "order_confirmation")!.id;
    pendingTemplateId = list.find((t) => t.status === "PENDING")!.id;
  });

  async function readyDraft(name = "Order confirmation") {
    const db = await getDb();
    const created = await createCampaign(db, workspaceId, { name, kind: "trigger" });
    return updateCampaign(db, workspaceId, created.id, {
      triggerConfig: orderMapping,
      templateId: orderTemplateId,
      messageConfig: {
        variables: [
          { key: "body.1", attribute: "name", fallback: "there" },
          { key: "body.2", attribute: "orderNumber", fallback: null },
        ],
      },
    });
  }

  it("creates a draft with the default phone mapping and lists it with zero counts", async () => {
    const db = await getDb();
    const campaign = await createCampaign(db, workspaceId, { name: "  Welcome  " });
    expect(campaign).toMatchObject({ name: "Welcome", kind: "trigger", status: "draft", version: 1, templateId: null });
    expect(campaign.triggerConfig).toEqual({ phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [], example: null });
    const page = await listCampaigns(db, workspaceId);
    expect(page.data.find((c) => c.id === campaign.id)?.stats).toEqual({ total: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0 });
  });

  it("refuses bulk members on trigger campaigns and blank names, writing nothing", async () => {
    const db = await getDb();
    const before = (await listCampaigns(db, workspaceId)).data.length;
    await expect(createCampaign(db, workspaceId, { name: "Bulk", kind: "trigger", sendRatePerSecond: 5 }).catch(toApiError)).resolves.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ path: "sendRatePerSecond" })],
    });
    // Input validation throws a ZodError; `.catch(toApiError)` gives the problem a route answers with.
    await expect(createCampaign(db, workspaceId, { name: " " }).catch(toApiError)).resolves.toMatchObject({
      status: 422,
      code: "validation_failed",
      errors: [expect.objectContaining({ path: "name", code: "too_small" })],
    });
    expect((await listCampaigns(db, workspaceId)).data.length).toBe(before);
  });

  it("saves the mapping, bumping the version, and rejects invalid configuration", async () => {
    const db = await getDb();
    const campaign = await readyDraft();
    expect(campaign.version).toBe(2);
    expect(campaign.template).toMatchObject({ id: orderTemplateId, name: "order_confirmation", status: "APPROVED" });
    await expect(
      updateCampaign(db, workspaceId, campaign.id, {
        triggerConfig: { phoneField: "phone", fields: [{ field: "phone", attribute: "x", type: "string", required: true }] },
      }).catch(toApiError),
    ).resolves.toMatchObject({ status: 422, code: "validation_failed", errors: [expect.objectContaining({ path: "triggerConfig.fields[0].field" })] });
    const missingTemplate = await rejection(updateCampaign(db, workspaceId, campaign.id, { templateId: "tpl_nope" }));
    expect(missingTemplate.status).toBe(422);
    expect((await getCampaign(db, workspaceId, campaign.id)).version).toBe(2);
  });

  it("respects opt-outs by default; a save can turn it off, and a save without it keeps it", async () => {
    const db = await getDb();
    const campaign = await readyDraft();
    expect(campaign.respectOptOut).toBe(true);
    expect((await updateCampaign(db, workspaceId, campaign.id, { respectOptOut: false })).respectOptOut).toBe(false);
    expect((await updateCampaign(db, workspaceId, campaign.id, { name: "Renamed" })).respectOptOut).toBe(false);
    expect((await getCampaign(db, workspaceId, campaign.id)).respectOptOut).toBe(false);
  });

  it("rejects a save based on an old version", async () => {
    const db = await getDb();
    const campaign = await readyDraft();
    const stale = await rejection(updateCampaign(db, workspaceId, campaign.id, { name: "Renamed", version: campaign.version - 1 }));
    expect(stale).toMatchObject({ status: 409, code: "version_conflict" });
    expect((await updateCampaign(db, workspaceId, campaign.id, { name: "Renamed", version: campaign.version })).name).toBe("Renamed");
  });

  it("lists every failing deploy check next to its node and stays a draft", async () => {
    const db = await getDb();
    const campaign = await createCampaign(db, workspaceId, { name: "Incomplete" });
    let error = await rejection(deployCampaign(db, workspaceId, campaign.id));
    expect(error).toMatchObject({ status: 422, code: "deploy_checks_failed" });
    expect(error.errors?.map((e) => e.path)).toEqual(["message.template"]);

    await updateCampaign(db, workspaceId, campaign.id, { templateId: pendingTemplateId });
    error = await rejection(deployCampaign(db, workspaceId, campaign.id));
    expect(error.errors?.map((e) => `${e.path}:${e.code}`)).toEqual([
      "message.template:template_not_approved",
      "message.variables.body.1:variable_unmapped",
      "message.variables.body.2:variable_unmapped",
    ]);

    await updateCampaign(db, workspaceId, campaign.id, { templateId: orderTemplateId, messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: null }] } });
    await db.update(senders).set({ provider: "whatsapp" }).where(eq(senders.workspaceId, workspaceId));
    try {
      error = await rejection(deployCampaign(db, workspaceId, campaign.id));
      expect(error.errors?.map((e) => `${e.path}:${e.code}`)).toEqual([
        "message.template:template_unavailable",
        "message.variables.body.2:variable_unmapped",
        "sender:sender_not_configured",
      ]);
    } finally {
      await db.update(senders).set({ provider: "sandbox" }).where(eq(senders.workspaceId, workspaceId));
    }
    expect((await getCampaign(db, workspaceId, campaign.id)).status).toBe("draft");
  });

  it("runs the lifecycle draft → active → paused → active → archived with edit rules", async () => {
    const db = await getDb();
    const draft = await readyDraft();
    const active = await deployCampaign(db, workspaceId, draft.id);
    expect(active).toMatchObject({ status: "active", version: draft.version + 1 });
    expect(active.deployedAt).not.toBeNull();

    // Live edits wait in the draft revision (revision.test.ts): the campaign itself stays as it is.
    const revised = await updateCampaign(db, workspaceId, draft.id, { name: "Edited while live" });
    expect(revised).toMatchObject({ status: "active", name: draft.name, draftRevision: { name: "Edited while live", changes: ["name"] } });
    await updateCampaign(db, workspaceId, draft.id, { name: draft.name });
    expect((await rejection(deployCampaign(db, workspaceId, draft.id))).status).toBe(409);
    expect((await rejection(resumeCampaign(db, workspaceId, draft.id))).status).toBe(409);

    const paused = await pauseCampaign(db, workspaceId, draft.id);
    expect(paused.status).toBe("paused");
    expect((await pauseCampaign(db, workspaceId, draft.id)).version).toBe(paused.version);
    const edited = await updateCampaign(db, workspaceId, draft.id, { name: "Edited while paused" });
    expect(edited.name).toBe("Edited while paused");

    // A paused campaign is checked again on resume.
    await updateCampaign(db, workspaceId, draft.id, { messageConfig: { variables: [] } });
    expect((await rejection(resumeCampaign(db, workspaceId, draft.id))).code).toBe("deploy_checks_failed");
    await updateCampaign(db, workspaceId, draft.id, {
      messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: null }, { key: "body.2", attribute: null, fallback: "—" }] },
    });
    const resumed = await resumeCampaign(db, workspaceId, draft.id);
    expect(resumed.status).toBe("active");
    expect(resumed.deployedAt).toBe(active.deployedAt);

    const archived = await archiveCampaign(db, workspaceId, draft.id);
    expect(archived.status).toBe("archived");
    expect((await rejection(updateCampaign(db, workspaceId, draft.id, { name: "x" }))).status).toBe(409);
    expect((await rejection(resumeCampaign(db, workspaceId, draft.id))).status).toBe(409);
    expect((await listCampaigns(db, workspaceId)).data.some((c) => c.id === draft.id)).toBe(false);
    expect((await listCampaigns(db, workspaceId, { includeArchived: true })).data.some((c) => c.id === draft.id)).toBe(true);
  });

  it("lets exactly one of two concurrent deploys win", async () => {
    const db = await getDb();
    const draft = await readyDraft();
    const results = await Promise.allSettled([deployCampaign(db, workspaceId, draft.id), deployCampaign(db, workspaceId, draft.id)]);
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect((rejected[0]!.reason as ApiError).status).toBe(409);
    const stored = await getCampaign(db, workspaceId, draft.id);
    expect(stored).toMatchObject({ status: "active", version: draft.version + 1 });
  });

  it("keeps workspaces apart: another workspace's campaign is not found", async () => {
    const db = await getDb();
    const mine = await readyDraft();
    const other = await createTestAccount();
    for (const call of [
      () => getCampaign(db, other.workspaceId, mine.id),
      () => updateCampaign(db, other.workspaceId, mine.id, { name: "Hijack" }),
      () => deployCampaign(db, other.workspaceId, mine.id),
      () => pauseCampaign(db, other.workspaceId, mine.id),
      () => resumeCampaign(db, other.workspaceId, mine.id),
      () => archiveCampaign(db, other.workspaceId, mine.id),
    ]) {
      expect((await rejection(call())).status).toBe(404);
    }
    expect((await listCampaigns(db, other.workspaceId)).data).toEqual([]);
    // Nor can a campaign point at another workspace's template.
    const theirs = await createCampaign(db, other.workspaceId, { name: "Theirs" });
    expect((await rejection(updateCampaign(db, other.workspaceId, theirs.id, { templateId: orderTemplateId }))).status).toBe(422);
    expect((await getCampaign(db, workspaceId, mine.id)).name).toBe("Order confirmation");
  });

  it("pages the list with a cursor and counts messages per status", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createCampaign(db, account.workspaceId, { name: `C${i}` })).id);
    const first = await listCampaigns(db, account.workspaceId, { limit: 2 });
    expect(first.data).toHaveLength(2);
    const second = await listCampaigns(db, account.workspaceId, { limit: 2, cursor: first.nextCursor });
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.data, ...second.data].map((c) => c.id))).toEqual(new Set(ids));
    expect((await rejection(listCampaigns(db, account.workspaceId, { cursor: "garbage" }))).status).toBe(422);

    const campaignId = ids[0]!;
    const base = { workspaceId: account.workspaceId, campaignId, phoneNumber: "+14155552671", templateName: "t", templateLanguage: "en", renderedText: "x" };
    await db.insert(messages).values(
      (["queued", "sent", "delivered", "read", "failed", "failed", "skipped"] as const).map((status) => ({ ...base, id: newId("msg"), status })),
    );
    const stats = (await listCampaigns(db, account.workspaceId)).data.find((c) => c.id === campaignId)!.stats;
    expect(stats).toEqual({ total: 7, queued: 1, sent: 3, delivered: 2, read: 1, failed: 2, skipped: 1, replied: 0 });
  });

  it("pages through campaigns created within one millisecond without skipping or repeating any", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const ids: string[] = [];
    for (const micros of ["123100", "123200", "123300"]) {
      const { id } = await createCampaign(db, account.workspaceId, { name: `Same millisecond ${micros}` });
      await db
        .update(campaigns)
        .set({ createdAt: sql`${`2026-03-01T10:00:00.${micros}Z`}::timestamptz` })
        .where(eq(campaigns.id, id));
      ids.push(id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: CampaignPage = await listCampaigns(db, account.workspaceId, { limit: 1, cursor });
      seen.push(...page.data.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor && seen.length <= ids.length);
    expect(seen).toEqual([...ids].reverse());
  });

  it("refuses a cursor whose id is not a campaign id", async () => {
    const db = await getDb();
    const foreign = encodeCursor({ createdAt: "2026-03-01T10:00:00.123100Z", id: "msg_abc", direction: "older" });
    expect(await rejection(listCampaigns(db, workspaceId, { cursor: foreign }))).toMatchObject({ status: 422, code: "validation_failed" });
  });

  it("describes the deployment: both webhook URLs, limits and a curl example built from the mapping", async () => {
    const db = await getDb();
    const campaign = await readyDraft();
    const details = await getDeploymentDetails(db, workspaceId, campaign, "http://origin.test");
    const base = process.env.APP_URL ?? "http://origin.test";
    expect(details.webhookUrls.trigger).toBe(`${base.replace(/\/$/, "")}/api/campaigns/${campaign.id}/trigger`);
    expect(details.webhookUrls.outbound).toMatch(new RegExp(`/outbound/${campaign.id}$`));
    expect(details.limits).toEqual({ senderThroughputPerSecond: 80, messagingTier: "Sandbox — unlimited", triggerRequestsPerMinute: 600 });
    expect(details.samplePayload).toEqual({ phone: "+14155552671", name: "Maria", order_number: "A-10482" });
    expect(details.curl).toContain("x-api-key: <API_KEY>");
    expect(details.curl).toContain(`-d '{"phone":"+14155552671","name":"Maria","order_number":"A-10482"}'`);
    // Same URLs after pause/resume.
    await deployCampaign(db, workspaceId, campaign.id);
    await pauseCampaign(db, workspaceId, campaign.id);
    const resumed = await resumeCampaign(db, workspaceId, campaign.id);
    expect((await getDeploymentDetails(db, workspaceId, resumed, "http://origin.test")).webhookUrls).toEqual(details.webhookUrls);
  });

  it("offers built-in and stored contact attributes", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    await db.insert(contacts).values([
      { id: newId("ctc"), workspaceId: account.workspaceId, phoneNumber: "+14155550001", attributes: { city: "Lisbon", tier: "gold" } },
      { id: newId("ctc"), workspaceId: account.workspaceId, phoneNumber: "+14155550002", attributes: { city: "Porto", name: "dup" } },
    ]);
    expect(await listKnownAttributes(db, account.workspaceId)).toEqual(["phoneNumber", "name", "city", "tier"]);
    expect(await listKnownAttributes(db, workspaceId)).toEqual(["phoneNumber", "name"]);
  });
});
