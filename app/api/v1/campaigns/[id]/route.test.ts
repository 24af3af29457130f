import { beforeAll, describe, expect, it } from "vitest";
import { createApiAccount, callRoute, type ApiAccount } from "@/lib/testing/api-factories";
import { parseStrict } from "@/lib/http/request";
import { campaignSchema } from "@/lib/openapi/schemas";
import type { NextRouteHandler } from "@/lib/routing/route";
import { POST as CREATE } from "../route";
import { GET as LIST_TEMPLATES } from "../../templates/route";
import { GET, PATCH, DELETE } from "./route";
import { POST as DEPLOY, GET as DEPLOY_GET } from "./deploy/route";
import { POST as PAUSE } from "./pause/route";
import { POST as RESUME } from "./resume/route";
import { POST as ARCHIVE } from "./archive/route";

type Campaign = { id: string; status: string; version: number; draftRevision?: unknown; deployment: { webhookUrls: { trigger: string } } | null; errors?: { path: string; code: string }[] };

let owner: ApiAccount;
let intruder: ApiAccount;
let templateId: string;

const CONFIG = {
  triggerConfig: {
    phoneField: "phone",
    fields: [
      { field: "first_name", attribute: "name", type: "string", required: false },
      { field: "order", attribute: "order_id", type: "string", required: true },
    ],
  },
  messageConfig: {
    variables: [
      { key: "body.1", attribute: "name", fallback: "there" },
      { key: "body.2", attribute: "order_id", fallback: null },
    ],
  },
};

async function newCampaign(account = owner): Promise<string> {
  const created = await callRoute<Campaign>(CREATE, "POST", "/api/v1/campaigns", { key: account.key, body: { name: "Order confirmation" } });
  return created.body.id;
}

const at = (id: string) => `/api/v1/campaigns/${id}`;
const get = (id: string, account = owner) => callRoute<Campaign>(GET, "GET", at(id), { key: account.key, params: { id } });
const patch = (id: string, body: unknown, account = owner) => callRoute<Campaign>(PATCH, "PATCH", at(id), { key: account.key, params: { id }, body });
const act = (handler: NextRouteHandler, id: string, body?: unknown, account = owner) =>
  callRoute<Campaign>(handler, "POST", `${at(id)}/action`, { key: account.key, params: { id }, body });

beforeAll(async () => {
  owner = await createApiAccount();
  intruder = await createApiAccount();
  const templates = await callRoute<{ data: { id: string; name: string }[] }>(LIST_TEMPLATES, "GET", "/api/v1/templates", { key: owner.key });
  templateId = templates.body.data.find((t) => t.name === "order_confirmation")!.id;
});

describe("GET /api/v1/campaigns/{id}", () => {
  it("returns the campaign; another workspace's campaign and a missing id are the same 404", async () => {
    const id = await newCampaign();
    const found = await get(id);
    expect(found.status).toBe(200);
    expect(parseStrict(campaignSchema, found.body)).toMatchObject({ id, status: "draft", deployment: null });
    const foreign = await get(id, intruder);
    const missing = await get("cmp_doesnotexist", intruder);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body).toEqual({ ...missing.body, requestId: expect.any(String) });
    expect((await callRoute(GET, "GET", at(id), { params: { id } })).status).toBe(401);
  });
});

describe("PATCH /api/v1/campaigns/{id}", () => {
  it("saves the mapping and template through the shared schemas, bumping the version", async () => {
    const id = await newCampaign();
    const updated = await patch(id, { ...CONFIG, templateId, name: "Confirmations", version: 1 });
    expect(updated.status).toBe(200);
    expect(parseStrict(campaignSchema, updated.body)).toMatchObject({ name: "Confirmations", templateId, version: 2, triggerConfig: CONFIG.triggerConfig });
    expect((await get(id)).body).toMatchObject({ version: 2, templateId });
  });

  it("422 for unknown fields at any depth and for rule violations; nothing is saved", async () => {
    const id = await newCampaign();
    const nested = await patch(id, {
      triggerConfig: { phoneField: "phone", fields: [{ field: "a", attribute: "b", type: "string", required: true, label: "A" }] },
      extra: 1,
    });
    expect(nested.status).toBe(422);
    expect(nested.body.errors?.map((e) => e.path).sort()).toEqual(["extra", "triggerConfig.fields[0].label"]);
    const duplicate = await patch(id, {
      triggerConfig: {
        phoneField: "phone",
        fields: [
          { field: "phone", attribute: "x", type: "string", required: true },
          { field: "y", attribute: "phoneNumber", type: "string", required: true },
        ],
      },
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors?.map((e) => e.path)).toEqual(["triggerConfig.fields[0].field", "triggerConfig.fields[1].attribute"]);
    const foreignTemplate = await patch(id, { templateId: "tpl_notmine" });
    expect(foreignTemplate.status).toBe(422);
    expect(foreignTemplate.body.errors).toEqual([expect.objectContaining({ path: "templateId" })]);
    expect((await get(id)).body).toMatchObject({ version: 1, templateId: null });
  });

  it("409 on a stale version and for archived campaigns; an active one keeps its edits in a draft revision; 404 across workspaces", async () => {
    const id = await newCampaign();
    await patch(id, { ...CONFIG, templateId });
    const stale = await patch(id, { name: "Stale", version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ type: "/docs/api#error-version_conflict", currentVersion: 2 });

    expect((await act(DEPLOY, id)).status).toBe(200);
    const active = await patch(id, { name: "Live edit" });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ status: "active", name: "Order confirmation", draftRevision: { name: "Live edit", changes: ["name"] } });
    expect((await patch(id, { name: "Theirs" }, intruder)).status).toBe(404);

    expect((await act(ARCHIVE, id)).status).toBe(200);
    expect((await patch(id, { name: "Archived edit" })).status).toBe(409);
    expect((await get(id)).body).toMatchObject({ status: "archived" });
  });

  it("405 with Allow for other methods", async () => {
    const response = await callRoute(DELETE, "DELETE", at("cmp_x"), { key: owner.key, params: { id: "cmp_x" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, PATCH");
    const deployGet = await callRoute(DEPLOY_GET, "GET", `${at("cmp_x")}/deploy`, { key: owner.key, params: { id: "cmp_x" } });
    expect(deployGet.headers.get("allow")).toBe("POST");
  });
});

describe("lifecycle: deploy, pause, resume, archive", () => {
  it("deploy refuses an incomplete campaign with every failing check (422) and changes nothing", async () => {
    const id = await newCampaign();
    const refused = await act(DEPLOY, id);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ type: "/docs/api#error-deploy_checks_failed" });
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: "message.template", code: "template_missing" })]);
    await patch(id, { triggerConfig: CONFIG.triggerConfig, templateId });
    const unmapped = await act(DEPLOY, id);
    expect(unmapped.status).toBe(422);
    expect(unmapped.body.errors?.map((e) => e.code)).toEqual(["variable_unmapped", "variable_unmapped"]);
    expect((await get(id)).body.status).toBe("draft");
  });

  it("deploy → pause → edit → resume → archive, with the deployment details once live", async () => {
    const id = await newCampaign();
    await patch(id, { ...CONFIG, templateId });
    const deployed = await act(DEPLOY, id, { version: 2 });
    expect(deployed.status).toBe(200);
    const live = parseStrict(campaignSchema, deployed.body);
    expect(live).toMatchObject({ status: "active", version: 3 });
    expect(live.deployedAt).toEqual(expect.any(String));
    expect(live.deployment?.webhookUrls.trigger).toMatch(new RegExp(`/api/campaigns/${id}/trigger$`));
    expect(live.deployment?.samplePayload).toMatchObject({ phone: expect.any(String), order: expect.any(String) });

    const again = await act(DEPLOY, id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ type: "/docs/api#error-invalid_status_transition" });
    expect((await act(RESUME, id)).status).toBe(409);

    expect((await act(PAUSE, id)).body).toMatchObject({ status: "paused" });
    expect((await act(PAUSE, id)).body).toMatchObject({ status: "paused" });
    expect((await patch(id, { name: "Paused edit" })).status).toBe(200);
    expect((await act(RESUME, id)).body).toMatchObject({ status: "active", name: "Paused edit" });
    expect((await act(ARCHIVE, id)).body).toMatchObject({ status: "archived", deployment: null });
    expect((await act(RESUME, id)).status).toBe(409);
    expect((await act(PAUSE, id)).status).toBe(409);
  });

  it("action bodies are optional but strict; a stale version is 409; other workspaces get 404", async () => {
    const id = await newCampaign();
    await patch(id, { ...CONFIG, templateId });
    const unknown = await act(DEPLOY, id, { force: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ path: "force", code: "unrecognized_key" })]);
    expect((await act(DEPLOY, id, { version: 1 })).status).toBe(409);
    for (const handler of [DEPLOY, PAUSE, RESUME, ARCHIVE]) expect((await act(handler, id, undefined, intruder)).status).toBe(404);
    expect((await get(id)).body).toMatchObject({ status: "draft", version: 2 });
    expect((await act(DEPLOY, id)).status).toBe(200);
  });
});
