// Journeys through the campaigns API: saving one validates the graph against the trigger mapping
// and the workspace's references (422 with paths), a live campaign's journey goes through its draft
// revision, and deploy checks each send step like the campaign's own message.
import { beforeAll, describe, expect, it } from "vitest";
import { POST as CREATE } from "@/app/api/v1/campaigns/route";
import { GET as LIST_TEMPLATES } from "@/app/api/v1/templates/route";
import { GET, PATCH } from "@/app/api/v1/campaigns/[id]/route";
import { POST as DEPLOY } from "@/app/api/v1/campaigns/[id]/deploy/route";
import { POST as PUBLISH } from "@/app/api/v1/campaigns/[id]/publish/route";
import { parseStrict } from "@/lib/http/request";
import { campaignSchema } from "@/lib/openapi/schemas";
import { callRoute, createApiAccount, type ApiAccount } from "@/lib/testing/api-factories";
import type { JourneyInput } from "./journey";
import type { CampaignView } from "./service";

type Campaign = CampaignView & { deployment: unknown; errors?: { path: string; code: string }[] };

let owner: ApiAccount;
let other: ApiAccount;
let orderTemplateId: string;
let pendingTemplateId: string;
let otherTemplateId: string;

const TRIGGER_CONFIG = {
  phoneField: "phone",
  fields: [
    { field: "first_name", attribute: "name", type: "string" as const, required: false },
    { field: "order", attribute: "order_id", type: "string" as const, required: true },
    { field: "cart.total", attribute: "cart_total", type: "number" as const, required: false },
  ],
};
const MESSAGE_CONFIG = { variables: [{ key: "body.1", attribute: "name", fallback: "there" }, { key: "body.2", attribute: "order_id", fallback: null }] };

const send = (id: string, next: string | null, templateId = orderTemplateId, extra: Record<string, unknown> = {}) => ({ id, name: `Send ${id}`, type: "send", templateId, messageConfig: MESSAGE_CONFIG, next, ...extra });
const journeyOf = (steps: unknown[], extra: Partial<JourneyInput> = {}) => ({ firstStepId: "remind", steps, ...extra });
const cart = () =>
  journeyOf([send("remind", "pause"), { id: "pause", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "again" }, send("again", null)], {
  exitEvents: [{ kind: "event", name: "order_placed" }],
});

const at = (id: string) => `/api/v1/campaigns/${id}`;
const patch = (id: string, body: unknown) => callRoute<Campaign>(PATCH, "PATCH", at(id), { key: owner.key, params: { id }, body });
const act = (handler: typeof DEPLOY, id: string) => callRoute<Campaign>(handler, "POST", `${at(id)}/action`, { key: owner.key, params: { id } });

async function triggerCampaign(): Promise<string> {
  const created = await callRoute<Campaign>(CREATE, "POST", "/api/v1/campaigns", { key: owner.key, body: { name: "Cart abandoned" } });
  expect(created.status).toBe(201);
  expect((await patch(created.body.id, { triggerConfig: TRIGGER_CONFIG })).status).toBe(200);
  return created.body.id;
}

beforeAll(async () => {
  owner = await createApiAccount();
  other = await createApiAccount();
  const list = async (account: ApiAccount) =>
    (await callRoute<{ data: { id: string; name: string; status: string }[] }>(LIST_TEMPLATES, "GET", "/api/v1/templates", { key: account.key })).body.data;
  const templates = await list(owner);
  orderTemplateId = templates.find((t) => t.name === "order_confirmation")!.id;
  pendingTemplateId = templates.find((t) => t.status === "PENDING")!.id;
  otherTemplateId = (await list(other)).find((t) => t.name === "order_confirmation")!.id;
});

describe("a journey in the campaigns API", () => {
  it("saves a journey on a draft, shows it with its version, and takes it when a trigger campaign is created", async () => {
    const id = await triggerCampaign();
    const saved = await patch(id, { journey: cart() });
    expect(saved.status).toBe(200);
    const view = parseStrict(campaignSchema, saved.body);
    expect(view.journey).toMatchObject({ firstStepId: "remind", steps: [{ id: "remind", type: "send" }, { id: "pause" }, { id: "again" }], reentry: { rule: "if_not_active" } });
    expect(view.journeyVersion).toBe(0);
    expect((await callRoute<Campaign>(GET, "GET", at(id), { key: owner.key, params: { id } })).body.journey?.steps).toHaveLength(3);

    const created = await callRoute<Campaign>(CREATE, "POST", "/api/v1/campaigns", { key: owner.key, body: { name: "With a journey", journey: cart() } });
    expect(created.status).toBe(201);
    expect(created.body.journey?.firstStepId).toBe("remind");
    const bulk = await callRoute<Campaign>(CREATE, "POST", "/api/v1/campaigns", { key: owner.key, body: { name: "Bulk", kind: "bulk", journey: cart() } });
    expect(bulk.status).toBe(422);

    const cleared = await patch(id, { journey: null });
    expect(cleared.body.journey).toBeNull();
  });

  it("refuses a bad journey with 422 and the path of each problem", async () => {
    const id = await triggerCampaign();
    const cases: [string, unknown, string, string][] = [
      ["a cycle", journeyOf([send("remind", "pause"), { id: "pause", type: "wait", wait: { kind: "duration", seconds: 60 }, next: "remind" }]), "journey.steps[1]", "cycle"],
      ["an unreachable step", journeyOf([send("remind", null), send("lost", null)]), "journey.steps[1]", "unreachable_step"],
      ["a wait over a year", journeyOf([send("remind", "pause"), { id: "pause", type: "wait", wait: { kind: "duration", seconds: 366 * 24 * 3600 }, next: null }]), "journey.steps[1].wait.seconds", "too_big"],
      [
        "a branch on an unmapped field",
        journeyOf([
          { id: "remind", type: "branch", paths: [{ name: "Big cart", conditions: [{ subject: { kind: "trigger", field: "coupon" }, operator: "exists" }], next: null }], elseNext: null },
        ]),
        "journey.steps[0].paths[0].conditions[0].subject.field",
        "unmapped_field",
      ],
      ["an unknown step", journeyOf([send("remind", "nowhere")]), "journey.steps[0]", "unknown_step"],
      ["a duplicate id", journeyOf([send("remind", null), send("remind", null)]), "journey.steps[1].id", "duplicate_step"],
      ["its own trigger as exit", journeyOf([send("remind", null)], { exitEvents: [{ kind: "campaign", campaignId: id }] }), "journey.exitEvents[0]", "own_trigger"],
      ["an unknown template", journeyOf([send("remind", null, "tpl_doesnotexist")]), "journey.steps[0].templateId", "not_found"],
      ["another workspace's template", journeyOf([send("remind", null, otherTemplateId)]), "journey.steps[0].templateId", "not_found"],
      ["an unknown sender", journeyOf([send("remind", null, orderTemplateId, { senderId: "snd_nope" })]), "journey.steps[0].senderId", "not_found"],
      [
        "an unknown list",
        journeyOf([{ id: "remind", type: "update_contact", addToListIds: ["lst_nope"], next: null }]),
        "journey.steps[0].addToListIds[0]",
        "not_found",
      ],
    ];
    for (const [what, journey, path, code] of cases) {
      const response = await patch(id, { journey });
      expect(response.status, what).toBe(422);
      expect(response.body.errors, what).toContainEqual(expect.objectContaining({ path, ...(code === "too_big" ? {} : { code }) }));
    }
    // A branch on a field the trigger maps is fine.
    const mapped = journeyOf([
      { id: "remind", type: "branch", paths: [{ name: "Big cart", conditions: [{ subject: { kind: "trigger", field: "cart.total" }, operator: "greater_than", value: 100 }], next: "big" }], elseNext: null },
      send("big", null),
    ]);
    expect((await patch(id, { journey: mapped })).status).toBe(200);
    expect((await callRoute<Campaign>(GET, "GET", at(id), { key: owner.key, params: { id } })).body.journey?.steps).toHaveLength(2);
  });

  it("deploy checks every send step (template approved, variables mapped) with the step's id in the path, not the campaign's template", async () => {
    const id = await triggerCampaign();
    const journey = journeyOf([send("remind", "again", pendingTemplateId), send("again", null, orderTemplateId, { messageConfig: { variables: [] } })]);
    expect((await patch(id, { journey })).status).toBe(200);
    const refused = await act(DEPLOY, id);
    expect(refused.status).toBe(422);
    const paths = refused.body.errors?.map((e) => `${e.path} ${e.code}`) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining(["journey.steps.remind.template template_not_approved", "journey.steps.again.variables.body.2 variable_unmapped"]),
    );
    expect(paths.some((p) => p.startsWith("message."))).toBe(false);

    expect((await patch(id, { journey: cart() })).status).toBe(200);
    const deployed = await act(DEPLOY, id);
    expect(deployed.status).toBe(200);
    expect(deployed.body.status).toBe("active");
  });

  it("a live campaign's journey edits go into the draft revision; publishing puts them live", async () => {
    const id = await triggerCampaign();
    expect((await patch(id, { journey: cart() })).status).toBe(200);
    expect((await act(DEPLOY, id)).status).toBe(200);
    const shorter = journeyOf([send("remind", null)]);
    const pending = await patch(id, { journey: shorter });
    expect(pending.status).toBe(200);
    expect(pending.body.journey?.steps).toHaveLength(3);
    expect(pending.body.draftRevision).toMatchObject({ changes: ["journey"], journey: { steps: [{ id: "remind" }] } });
    const published = await act(PUBLISH, id);
    expect(published.status).toBe(200);
    expect(published.body.journey?.steps).toHaveLength(1);
    expect(published.body.draftRevision).toBeNull();
    // A bad journey never reaches the revision.
    expect((await patch(id, { journey: journeyOf([send("remind", "nowhere")]) })).status).toBe(422);
    expect((await callRoute<Campaign>(GET, "GET", at(id), { key: owner.key, params: { id } })).body.draftRevision).toBeNull();
  });
});
