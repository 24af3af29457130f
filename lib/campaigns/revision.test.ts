// Editing a live campaign through its draft revision, publishing and discarding it, and
// unarchiving: through the real route handlers and the trigger endpoint, on either database.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as TRIGGER } from "@/app/api/campaigns/[id]/trigger/route";
import { POST as CREATE } from "@/app/api/v1/campaigns/route";
import { GET as LIST_TEMPLATES } from "@/app/api/v1/templates/route";
import { GET, PATCH } from "@/app/api/v1/campaigns/[id]/route";
import { POST as ARCHIVE } from "@/app/api/v1/campaigns/[id]/archive/route";
import { POST as DEPLOY } from "@/app/api/v1/campaigns/[id]/deploy/route";
import { POST as DISCARD } from "@/app/api/v1/campaigns/[id]/discard/route";
import { POST as PAUSE } from "@/app/api/v1/campaigns/[id]/pause/route";
import { POST as PUBLISH } from "@/app/api/v1/campaigns/[id]/publish/route";
import { POST as RESUME } from "@/app/api/v1/campaigns/[id]/resume/route";
import { POST as UNARCHIVE } from "@/app/api/v1/campaigns/[id]/unarchive/route";
import { getDb } from "@/db";
import { auditEvents, campaigns } from "@/db/schema";
import type { NextRouteHandler } from "@/lib/routing/route";
import { parseStrict } from "@/lib/http/request";
import { campaignSchema } from "@/lib/openapi/schemas";
import { callRoute, createApiAccount, type ApiAccount } from "@/lib/testing/api-factories";
import { describeRevisionChanges, parseStoredRevision, revisionChanges, type CampaignConfig } from "./revision";
import { journeySchema } from "./journey";
import { updateRuleOf } from "./schemas";
import type { CampaignView } from "./service";

type Campaign = CampaignView & { deployment: unknown; errors?: { path: string; code: string }[]; currentVersion?: number; type?: string };

let owner: ApiAccount;
let intruder: ApiAccount;
let orderTemplateId: string;
let pendingTemplateId: string;

const TRIGGER_CONFIG = {
  phoneField: "phone",
  phoneFallbacks: [],
  countryField: null,
  fields: [
    { field: "first_name", fallbacks: [], attribute: "name", type: "string" as const, required: false },
    { field: "order", fallbacks: [], attribute: "order_id", type: "string" as const, required: true },
  ],
  example: null,
};
const MESSAGE_CONFIG = {
  variables: [
    { key: "body.1", attribute: "name", fallback: "there" },
    { key: "body.2", attribute: "order_id", fallback: null },
  ],
};
const withFallback = (fallback: string) => ({ variables: [{ ...MESSAGE_CONFIG.variables[0]!, fallback }, MESSAGE_CONFIG.variables[1]!] });

const at = (id: string) => `/api/v1/campaigns/${id}`;
const get = (id: string, account = owner) => callRoute<Campaign>(GET, "GET", at(id), { key: account.key, params: { id } });
const patch = (id: string, body: unknown, account = owner) => callRoute<Campaign>(PATCH, "PATCH", at(id), { key: account.key, params: { id }, body });
const act = (handler: NextRouteHandler, id: string, body?: unknown, account = owner) =>
  callRoute<Campaign>(handler, "POST", `${at(id)}/action`, { key: account.key, params: { id }, body });

/** What a trigger request renders right now (dry run: nothing stored or sent). */
async function rendered(id: string, body: Record<string, unknown> = { phone: "+14155552671", order: "A-1" }) {
  return callRoute<{ text?: string; type?: string; errors?: { path: string }[] }>(TRIGGER, "POST", `/api/campaigns/${id}/trigger?dryRun=true`, {
    key: owner.key,
    params: { id },
    body,
  });
}

async function liveCampaign(): Promise<Campaign> {
  const created = await callRoute<Campaign>(CREATE, "POST", "/api/v1/campaigns", { key: owner.key, body: { name: "Order confirmation" } });
  const id = created.body.id;
  expect((await patch(id, { triggerConfig: TRIGGER_CONFIG, messageConfig: MESSAGE_CONFIG, templateId: orderTemplateId })).status).toBe(200);
  const deployed = await act(DEPLOY, id);
  expect(deployed.status).toBe(200);
  return deployed.body;
}

async function storedRow(id: string) {
  const [row] = await (await getDb()).select().from(campaigns).where(eq(campaigns.id, id));
  return row!;
}

beforeAll(async () => {
  owner = await createApiAccount();
  intruder = await createApiAccount();
  const templates = await callRoute<{ data: { id: string; name: string; status: string }[] }>(LIST_TEMPLATES, "GET", "/api/v1/templates", { key: owner.key });
  orderTemplateId = templates.body.data.find((t) => t.name === "order_confirmation")!.id;
  pendingTemplateId = templates.body.data.find((t) => t.status === "PENDING")!.id;
});

describe("editing an active campaign", () => {
  it("saves into the draft revision: the campaign stays active and triggers keep the live configuration", async () => {
    const live = await liveCampaign();
    expect((await rendered(live.id)).body.text).toContain("Hi there,");

    const saved = await patch(live.id, { messageConfig: withFallback("friend"), version: live.version });
    expect(saved.status).toBe(200);
    const view = parseStrict(campaignSchema, saved.body);
    expect(view).toMatchObject({ status: "active", version: live.version + 1, messageConfig: MESSAGE_CONFIG });
    expect(view.draftRevision).toMatchObject({ messageConfig: withFallback("friend"), templateId: orderTemplateId, changes: ["messageConfig"] });
    expect(view.deployment).not.toBeNull();

    // The columns the trigger reads are untouched, and a trigger renders the old text (never a 409).
    const row = await storedRow(live.id);
    expect(row).toMatchObject({ status: "active", messageConfig: MESSAGE_CONFIG, templateId: orderTemplateId });
    const during = await rendered(live.id);
    expect(during.status).toBe(200);
    expect(during.body.text).toContain("Hi there,");

    // A second save builds on the revision, not on the live configuration.
    const renamed = await patch(live.id, { name: "Order confirmation v2" });
    expect(renamed.body.draftRevision).toMatchObject({ name: "Order confirmation v2", messageConfig: withFallback("friend"), changes: ["name", "messageConfig"] });
    expect(renamed.body.name).toBe("Order confirmation");
  });

  it("takes the send policy into the revision, validates it, and publishes it", async () => {
    const live = await liveCampaign();
    const bad = await patch(live.id, { sendPolicy: { quietHours: { start: "21:00", end: "21:00" }, frequencyCap: null } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.path)).toEqual(["sendPolicy.quietHours.end"]);
    const policy = { quietHours: { start: "21:00", end: "08:00" }, frequencyCap: { limit: 2, periodHours: 168, scope: "workspace" as const } };
    const pending = await patch(live.id, { sendPolicy: policy });
    expect(pending.body.sendPolicy).toEqual({ quietHours: null, frequencyCap: null });
    expect(pending.body.draftRevision).toMatchObject({ sendPolicy: policy, changes: ["sendPolicy"] });
    const published = await act(PUBLISH, live.id, { version: pending.body.version });
    expect(published.status).toBe(200);
    expect(published.body.sendPolicy).toEqual(policy);
    expect(published.body.draftRevision).toBeNull();
  });

  it("leaves no revision when the edits bring it back to the live configuration", async () => {
    const live = await liveCampaign();
    await patch(live.id, { messageConfig: withFallback("friend") });
    const back = await patch(live.id, { messageConfig: MESSAGE_CONFIG });
    expect(back.status).toBe(200);
    expect(back.body.draftRevision).toBeNull();
    expect((await storedRow(live.id)).draftRevision).toBeNull();
  });

  it("publish runs the checks on the revision and swaps it in at once: version bump, audit row, new text", async () => {
    const live = await liveCampaign();
    const renamedField = { ...TRIGGER_CONFIG, fields: [{ ...TRIGGER_CONFIG.fields[0]!, field: "given_name" }, TRIGGER_CONFIG.fields[1]!] };
    const saved = await patch(live.id, { messageConfig: withFallback("friend"), triggerConfig: renamedField });
    const order = { phone: "+14155552671", order: "A-1", first_name: "Ann" };

    // While the swap happens, every request sees the old configuration ("Hi Ann": first_name is
    // mapped) or the new one ("Hi friend": first_name is ignored, the new fallback applies). A mix
    // would render "Hi there"; a refusal would be a 409.
    const [published, ...during] = await Promise.all([
      act(PUBLISH, live.id, { version: saved.body.version }),
      ...Array.from({ length: 6 }, () => rendered(live.id, order)),
    ]);
    for (const response of during) {
      expect(response.status).toBe(200);
      expect(response.body.text).toMatch(/Hi (Ann|friend),/);
    }

    expect(published.status).toBe(200);
    expect(parseStrict(campaignSchema, published.body)).toMatchObject({
      status: "active",
      version: saved.body.version + 1,
      triggerConfig: renamedField,
      messageConfig: withFallback("friend"),
      draftRevision: null,
    });
    expect((await rendered(live.id, order)).body.text).toContain("Hi friend,");
    expect((await rendered(live.id, { ...order, given_name: "Bo" })).body.text).toContain("Hi Bo,");

    const db = await getDb();
    const audit = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, owner.workspaceId), eq(auditEvents.targetId, live.id), eq(auditEvents.action, "campaign.published")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.metadata).toMatchObject({ version: saved.body.version + 1, changes: ["triggerConfig", "messageConfig"] });

    // Nothing left to publish.
    const again = await act(PUBLISH, live.id);
    expect(again.status).toBe(409);
    expect(again.body.type).toBe("/docs/api#error-nothing_to_publish");
  });

  it("publish with failing checks answers 422 with every check and changes nothing", async () => {
    const live = await liveCampaign();
    const saved = await patch(live.id, { templateId: pendingTemplateId, messageConfig: { variables: [] } });
    expect(saved.status).toBe(200);
    const refused = await act(PUBLISH, live.id);
    expect(refused.status).toBe(422);
    expect(refused.body.type).toBe("/docs/api#error-deploy_checks_failed");
    expect(refused.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: "message.template", code: "template_not_approved" })]));
    const stored = await get(live.id);
    expect(stored.body).toMatchObject({ status: "active", version: saved.body.version, templateId: orderTemplateId });
    expect(stored.body.draftRevision).toMatchObject({ templateId: pendingTemplateId });
    expect((await rendered(live.id)).body.text).toContain("Hi there,");
  });

  it("discard drops the revision and keeps the live configuration; discarding nothing changes nothing", async () => {
    const live = await liveCampaign();
    const saved = await patch(live.id, { messageConfig: withFallback("friend") });
    const discarded = await act(DISCARD, live.id, { version: saved.body.version });
    expect(discarded.status).toBe(200);
    expect(discarded.body).toMatchObject({ status: "active", version: saved.body.version + 1, draftRevision: null, messageConfig: MESSAGE_CONFIG });
    const noop = await act(DISCARD, live.id);
    expect(noop.body.version).toBe(discarded.body.version);
    expect((await rendered(live.id)).body.text).toContain("Hi there,");
  });

  it("a paused campaign with pending edits keeps editing the revision; without, it changes in place", async () => {
    const live = await liveCampaign();
    await patch(live.id, { messageConfig: withFallback("friend") });
    expect((await act(PAUSE, live.id)).body.status).toBe("paused");
    const paused = await patch(live.id, { name: "Renamed while paused" });
    expect(paused.body).toMatchObject({ status: "paused", name: "Order confirmation" });
    expect(paused.body.draftRevision).toMatchObject({ name: "Renamed while paused", changes: ["name", "messageConfig"] });
    const published = await act(PUBLISH, live.id);
    expect(published.body).toMatchObject({ status: "paused", name: "Renamed while paused", draftRevision: null });
    const inPlace = await patch(live.id, { name: "In place" });
    expect(inPlace.body).toMatchObject({ name: "In place", draftRevision: null });
    expect((await act(RESUME, live.id)).body.status).toBe("active");
  });

  it("stale versions are 409 and another workspace gets 404, writing nothing", async () => {
    const live = await liveCampaign();
    const saved = await patch(live.id, { messageConfig: withFallback("friend") });
    for (const [handler, name] of [
      [PUBLISH, "publish"],
      [DISCARD, "discard"],
    ] as const) {
      const stale = await act(handler, live.id, { version: live.version });
      expect(stale.status, name).toBe(409);
      expect(stale.body).toMatchObject({ type: "/docs/api#error-version_conflict", currentVersion: saved.body.version });
      expect((await act(handler, live.id, undefined, intruder)).status, name).toBe(404);
    }
    expect((await patch(live.id, { name: "Stale", version: live.version })).status).toBe(409);
    expect((await patch(live.id, { name: "Theirs" }, intruder)).status).toBe(404);
    expect((await act(UNARCHIVE, live.id, undefined, intruder)).status).toBe(404);
    const stored = await get(live.id);
    expect(stored.body).toMatchObject({ version: saved.body.version, name: "Order confirmation" });
    expect(stored.body.draftRevision).toMatchObject({ messageConfig: withFallback("friend") });
  });
});

describe("unarchive", () => {
  it("brings an archived campaign back as a draft without its deployment, with its pending edits", async () => {
    const live = await liveCampaign();
    await patch(live.id, { messageConfig: withFallback("friend") });
    const archived = await act(ARCHIVE, live.id);
    expect(archived.body).toMatchObject({ status: "archived", deployment: null });
    expect((await patch(live.id, { name: "x" })).status).toBe(409);

    const notArchived = await act(UNARCHIVE, (await liveCampaign()).id);
    expect(notArchived.status).toBe(409);
    expect(notArchived.body.type).toBe("/docs/api#error-invalid_status_transition");
    expect((await act(UNARCHIVE, live.id, { version: live.version })).status).toBe(409);

    const back = await act(UNARCHIVE, live.id, { version: archived.body.version });
    expect(back.status).toBe(200);
    expect(parseStrict(campaignSchema, back.body)).toMatchObject({
      status: "draft",
      version: archived.body.version + 1,
      deployedAt: null,
      deployment: null,
      draftRevision: null,
      messageConfig: withFallback("friend"),
    });
    expect((await rendered(live.id)).status).toBe(409);

    // A draft is edited in place and deployed again like any other.
    expect((await patch(live.id, { name: "Back again" })).body).toMatchObject({ status: "draft", name: "Back again" });
    const redeployed = await act(DEPLOY, live.id);
    expect(redeployed.body).toMatchObject({ status: "active" });
    expect(redeployed.body.deployedAt).toEqual(expect.any(String));
    expect((await rendered(live.id, { phone: "+14155552671", order: "A-1" })).body.text).toContain("Hi friend,");
  });
});

describe("revisionChanges and describeRevisionChanges", () => {
  const live: CampaignConfig = {
    name: "Orders",
    triggerConfig: TRIGGER_CONFIG,
    messageConfig: MESSAGE_CONFIG,
    templateId: "tpl_a",
    rateLimitPerMinute: 600,
    respectOptOut: true,
    sendPolicy: { quietHours: null, frequencyCap: null },
    journey: null,
  };

  it("ignores key order and reports each changed member in builder order", () => {
    const reordered = { ...live, triggerConfig: { example: null, fields: TRIGGER_CONFIG.fields.map((f) => ({ required: f.required, type: f.type, attribute: f.attribute, fallbacks: [], field: f.field })), countryField: null, phoneFallbacks: [], phoneField: "phone" } };
    expect(revisionChanges(live, reordered)).toEqual([]);
    expect(revisionChanges(live, { ...live, respectOptOut: false, templateId: "tpl_b", name: "New" })).toEqual(["name", "templateId", "respectOptOut"]);
  });

  it("reads a field stored without an update rule and the same field saved with the rule in effect as unchanged", () => {
    const stored = parseStoredRevision({ ...live, savedAt: "2026-11-26T00:00:00.000Z" })!;
    const saved = parseStoredRevision({ ...live, triggerConfig: { ...TRIGGER_CONFIG, fields: TRIGGER_CONFIG.fields.map((f) => ({ ...f, update: updateRuleOf(f) })) }, savedAt: "2026-11-26T00:00:00.000Z" })!;
    expect(revisionChanges(stored, saved)).toEqual([]);
    const never = parseStoredRevision({ ...live, triggerConfig: { ...TRIGGER_CONFIG, fields: TRIGGER_CONFIG.fields.map((f) => ({ ...f, update: "never" })) }, savedAt: "2026-11-26T00:00:00.000Z" })!;
    expect(revisionChanges(stored, never)).toEqual(["triggerConfig"]);
    const [line] = describeRevisionChanges(stored, never);
    expect(line!.details[0]).toMatch(/^Changed \S+ \(.*, (updates the contact|fills the contact when empty) → .*, never stored\)$/);
  });

  it("reads a stored journey and says how it changed", () => {
    const journey = journeySchema.parse({ firstStepId: "a", steps: [{ id: "a", type: "end" }] });
    const stored = parseStoredRevision({ ...live, journey, savedAt: "2026-11-26T00:00:00.000Z" })!;
    expect(stored.journey).toEqual(journey);
    expect(parseStoredRevision({ ...live, journey: { steps: "broken" }, savedAt: "2026-11-26T00:00:00.000Z" })!.journey).toBeNull();
    const base = parseStoredRevision({ ...live, savedAt: "2026-11-26T00:00:00.000Z" })!;
    expect(revisionChanges(base, stored)).toEqual(["journey"]);
    expect(describeRevisionChanges(base, stored)).toEqual([{ member: "journey", label: "Journey", summary: "one message → 1 step", details: [] }]);
  });

  it("describes fallbacks, the country code field and the example body", () => {
    const next: CampaignConfig = {
      ...live,
      triggerConfig: {
        ...TRIGGER_CONFIG,
        phoneFallbacks: ["shipping_address.phone"],
        countryField: "shipping_address.country_code",
        fields: [TRIGGER_CONFIG.fields[0]!, { ...TRIGGER_CONFIG.fields[1]!, fallbacks: ["order_number"] }],
        example: { phone: "+14155552671" },
      },
    };
    expect(describeRevisionChanges(live, next)[0]!.details).toEqual([
      "Phone fallbacks: none → shipping_address.phone",
      "Country code field: none → shipping_address.country_code",
      "Example body replaced",
      "Changed order (order_id, string, required → order_id, string, required, else order_number)",
    ]);
  });

  it("describes added, removed and changed rows in words", () => {
    const next: CampaignConfig = {
      ...live,
      templateId: "tpl_b",
      triggerConfig: { ...TRIGGER_CONFIG, phoneField: "mobile", fields: [{ ...TRIGGER_CONFIG.fields[1]!, required: false }, { field: "coupon", fallbacks: [], attribute: "coupon", type: "string", required: false }] },
      messageConfig: { variables: [{ key: "body.1", attribute: null, fallback: "friend" }] },
    };
    const names: Record<string, string> = { tpl_a: "order_confirmation", tpl_b: "shipping_update" };
    expect(describeRevisionChanges(live, next, (id) => (id ? names[id]! : "none"))).toEqual([
      { member: "triggerConfig", label: "Request fields", summary: null, details: ["Phone field: phone → mobile", "Changed order (order_id, string, required → order_id, string)", "Added coupon → coupon", "Removed first_name"] },
      { member: "templateId", label: "Template", summary: "order_confirmation → shipping_update", details: [] },
      { member: "messageConfig", label: "Template variables", summary: null, details: ['Body {{1}}: name, fallback "there" → no attribute, fallback "friend"', "Body {{2}}: no longer used"] },
    ]);
  });
});
