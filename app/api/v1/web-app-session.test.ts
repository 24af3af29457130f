// The web app calls the same /api/v1 tree as integrators, with its session cookie: every route
// answers it in the user's workspace, unsafe methods require the same origin, and another
// workspace stays invisible.
import { beforeAll, describe, expect, it } from "vitest";
import type { NextRouteHandler } from "@/lib/routing/route";
import { problemType } from "@/lib/http/problem";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie, type ApiAccount } from "@/lib/testing/api-factories";
import { GET as LIST, POST as CREATE } from "./campaigns/route";
import { GET, PATCH } from "./campaigns/[id]/route";
import { POST as ARCHIVE } from "./campaigns/[id]/archive/route";
import { POST as DEPLOY } from "./campaigns/[id]/deploy/route";
import { POST as PAUSE } from "./campaigns/[id]/pause/route";
import { POST as RESUME } from "./campaigns/[id]/resume/route";
import { GET as LOGS_CSV } from "./campaigns/[id]/logs.csv/route";
import { GET as MESSAGES } from "./campaigns/[id]/messages/route";
import { GET as TEMPLATES } from "./templates/route";

type Campaign = { id: string; name: string; status: string; version: number; deployment: { webhookUrls: { trigger: string } } | null };

let owner: ApiAccount;
let ownerCookie: string;
let intruderCookie: string;
let templateId: string;

const CONFIG = {
  triggerConfig: { phoneField: "phone", fields: [{ field: "order", attribute: "order_id", type: "string", required: true }] },
  messageConfig: {
    variables: [
      { key: "body.1", attribute: "name", fallback: "there" },
      { key: "body.2", attribute: "order_id", fallback: null },
    ],
  },
};

const web = <T = Campaign>(handler: NextRouteHandler, method: string, url: string, options: { id?: string; body?: unknown; cookie?: string; crossSite?: boolean } = {}) =>
  callRoute<T>(handler, method, url, {
    cookie: options.cookie ?? ownerCookie,
    params: options.id ? { id: options.id } : {},
    body: options.body,
    headers: options.crossSite ? { origin: "https://evil.example", "sec-fetch-site": "cross-site" } : SAME_ORIGIN,
  });

beforeAll(async () => {
  owner = await createApiAccount();
  ownerCookie = await sessionCookie(owner);
  intruderCookie = await sessionCookie(await createApiAccount());
  const templates = await web<{ data: { id: string; name: string }[] }>(TEMPLATES, "GET", "/api/v1/templates");
  expect(templates.status).toBe(200);
  templateId = templates.body.data.find((t) => t.name === "order_confirmation")!.id;
});

describe("the web app on /api/v1 with its session", () => {
  it("creates, edits, deploys, pauses, resumes and archives a campaign, answered as the campaign resource", async () => {
    const created = await web(CREATE, "POST", "/api/v1/campaigns", { body: { name: "Web order confirmation" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "draft", deployment: null });
    const id = created.body.id;

    const edited = await web(PATCH, "PATCH", `/api/v1/campaigns/${id}`, { id, body: { ...CONFIG, templateId } });
    expect(edited.status).toBe(200);
    expect(edited.body.version).toBe(2);

    const deployed = await web(DEPLOY, "POST", `/api/v1/campaigns/${id}/deploy`, { id, body: {} });
    expect(deployed.status).toBe(200);
    expect(deployed.body).toMatchObject({ status: "active" });
    expect(deployed.body.deployment?.webhookUrls.trigger).toMatch(new RegExp(`/api/campaigns/${id}/trigger$`));

    expect((await web(PAUSE, "POST", `/api/v1/campaigns/${id}/pause`, { id })).body).toMatchObject({ status: "paused" });
    expect((await web(RESUME, "POST", `/api/v1/campaigns/${id}/resume`, { id })).body).toMatchObject({ status: "active" });
    expect((await web(ARCHIVE, "POST", `/api/v1/campaigns/${id}/archive`, { id })).body).toMatchObject({ status: "archived", deployment: null });

    const listed = await web<{ data: Campaign[] }>(LIST, "GET", "/api/v1/campaigns?includeArchived=true");
    expect(listed.body.data.map((c) => c.id)).toContain(id);
    expect((await web(GET, "GET", `/api/v1/campaigns/${id}`, { id })).body).toMatchObject({ id, status: "archived" });
  });

  it("refuses every change from another site with 403, and changes nothing", async () => {
    const id = (await web(CREATE, "POST", "/api/v1/campaigns", { body: { name: "Cross-site target" } })).body.id;
    const attempts: [NextRouteHandler, string, string, unknown][] = [
      [CREATE, "POST", "/api/v1/campaigns", { name: "Forged" }],
      [PATCH, "PATCH", `/api/v1/campaigns/${id}`, { name: "Forged" }],
      [DEPLOY, "POST", `/api/v1/campaigns/${id}/deploy`, {}],
      [ARCHIVE, "POST", `/api/v1/campaigns/${id}/archive`, {}],
    ];
    for (const [handler, method, url, body] of attempts) {
      const result = await web<{ type: string }>(handler, method, url, { id, body, crossSite: true });
      expect(result.status, `${method} ${url}`).toBe(403);
      expect(result.body.type).toBe(problemType("cross_site_request"));
    }
    const after = await web(GET, "GET", `/api/v1/campaigns/${id}`, { id });
    expect(after.body).toMatchObject({ name: "Cross-site target", status: "draft", version: 1 });
  });

  it("bodies are as strict as for integrators: unknown members are 422", async () => {
    const result = await web<{ errors: { path: string }[] }>(CREATE, "POST", "/api/v1/campaigns", { body: { name: "x", color: "red" } });
    expect(result.status).toBe(422);
    expect(result.body.errors).toEqual([expect.objectContaining({ path: "color" })]);
  });

  it("another workspace's campaign is a 404 on every route", async () => {
    const id = (await web(CREATE, "POST", "/api/v1/campaigns", { body: { name: "Private" } })).body.id;
    const probes: [NextRouteHandler, string, string, unknown][] = [
      [GET, "GET", `/api/v1/campaigns/${id}`, undefined],
      [PATCH, "PATCH", `/api/v1/campaigns/${id}`, { name: "Taken" }],
      [PAUSE, "POST", `/api/v1/campaigns/${id}/pause`, {}],
      [MESSAGES, "GET", `/api/v1/campaigns/${id}/messages`, undefined],
      [LOGS_CSV, "GET", `/api/v1/campaigns/${id}/logs.csv`, undefined],
    ];
    for (const [handler, method, url, body] of probes) {
      const result = await web(handler, method, url, { id, body, cookie: intruderCookie });
      expect(result.status, `${method} ${url}`).toBe(404);
    }
  });

  it("reads messages and exports logs as CSV", async () => {
    const id = (await web(CREATE, "POST", "/api/v1/campaigns", { body: { name: "Logs" } })).body.id;
    const messages = await web<{ data: unknown[]; counts: Record<string, number> }>(MESSAGES, "GET", `/api/v1/campaigns/${id}/messages?include=counts`, { id });
    expect(messages.status).toBe(200);
    expect(messages.body.data).toEqual([]);
    expect(messages.body.counts).toEqual(expect.any(Object));
    const csv = await web<string>(LOGS_CSV, "GET", `/api/v1/campaigns/${id}/logs.csv`, { id });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.body.split("\r\n")[0]).toBe("created_at,message_id,phone_number,template,message,status,error_code,error_reason,sent_at,delivered_at,read_at,replied_at,direction,source,journey_step");
  });
});
