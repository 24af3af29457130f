// The API document against the wire: real requests through the real route handlers, every
// response held to the document (status, content type, schema, problem code, required headers),
// every accepted request to the documented request body and query parameters, and every
// documented (operation, status) pair and problem code exercised unless ALLOWED_UNEXERCISED says
// why not. The last two tests report what the scenarios before them recorded.
import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { campaigns, contacts, conversations, messages, senders, templates } from "@/db/schema";
import { FAILED_AUTH_LIMIT_PER_IP, resetBlockedAddresses } from "@/lib/api-keys/failures";
import { createApiKey } from "@/lib/api-keys/service";
import { createBulkFixture, PROMO_MESSAGE_CONFIG, testPhone, type BulkFixture } from "@/lib/bulk/test-fixtures";
import { newId } from "@/lib/crypto/random";
import { recordInboundMessages } from "@/lib/inbound/record";
import { defaultGraphHandler, fakeGraphForFile, graphError } from "@/lib/channels/whatsapp/testing";
import { dispatchSettled } from "@/lib/messaging";
import { getSenderRow } from "@/lib/senders/service";
import { createApiAccount, SAME_ORIGIN, sessionCookie, type ApiAccount } from "@/lib/testing/api-factories";
import { WireRecorder, type WireCall, type WireResult } from "@/lib/testing/openapi-recorder";
import { insertRun, publishJourney, reminderJourney } from "@/lib/testing/journey-seeds";
import { insertInboundRows } from "@/lib/testing/logs-factories";
import { createTestMessage } from "@/lib/testing/messaging-factories";
import { setLiveJourney } from "@/lib/testing/journey-factories";
import { createTriggerCampaign } from "@/lib/testing/trigger-factories";
import { flushTriggerRequests } from "@/lib/trigger/requests";
import { GET as getMe } from "@/app/api/v1/me/route";
import { buildOpenApiDocument } from "./document";

/**
 * Documented answers this test does not provoke, and why. Keys are `operationId status code`,
 * `operationId status`, or `* status` for every operation.
 */
const ALLOWED_UNEXERCISED: Record<string, string> = {
  "* 500": "An unexpected failure; its shape is the one problem mapping every route shares (lib/http/problem.test.ts).",
  "* 503": "The database unreachable; needs the database taken away mid-suite.",
  "triggerCampaign 409 idempotency_conflict": "Only while another request with the same key is between its claim and its stored response: a race, not a state to set up.",
  "triggerCampaignOutbound 409 idempotency_conflict": "The same race, on the other path.",
};

const fakeGraph = fakeGraphForFile();
const document = buildOpenApiDocument({ baseUrl: "http://localhost" });
const recorder = new WireRecorder(document);

let fx: BulkFixture;
let key: string;
let triggerOnlyKey: string;
let stranger: ApiAccount;
/** A trigger campaign (active) of the fixture's workspace, sending the fixture's template. */
let triggerCampaignId: string;
/** Path parameters of real resources of the fixture's workspace, by path. */
let existing: (apiPath: string) => Record<string, string>;
/** A contact of the fixture's list who opted out. */
let optedOutPhone: string;
/** The fixture workspace's default sender. */
let defaultSenderId: string;
/** Headers of the workspace owner's web app session (same origin): sender writes are theirs. */
let ownerSession: Record<string, string>;
/** Operations only owners and admins, signed in, may call (an API key gets 403). */
const ADMIN_WRITES = new Set(["createSender", "updateSender", "deleteSender"]);
/** A conversation of the fixture's workspace: a contact wrote a moment ago on the default sender. */
let conversationId: string;
/** A going journey run of the fixture's workspace (on the trigger campaign) and its contact's phone. */
let journeyRunId: string;
let journeyContactPhone: string;
/** Messages the trigger requests created. */
const messageIds: string[] = [];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const BLOCKED_ADDRESS = "198.51.100.77";
/** Over every JSON body limit (1 MiB for the largest, the bulk contact array). */
const OVERSIZED_BODY = JSON.stringify({ padding: "x".repeat(1_100_000) });

const TRIGGER_CONFIG = { phoneField: "phone", fields: [{ field: "code", attribute: "code", type: "string" as const, required: false }] };

/** Calls with the workspace's full key unless the request names another (or `triggerKey`). */
function call(operationId: string, request: Omit<WireCall, "key"> & { key?: string | null; triggerKey?: boolean }): Promise<WireResult> {
  const { triggerKey, ...rest } = request;
  return recorder.call(operationId, { ...rest, key: triggerKey ? triggerOnlyKey : request.key === undefined ? key : request.key });
}

beforeAll(async () => {
  const db = await getDb();
  fx = await createBulkFixture({ contacts: 3, optedOut: 1, attributes: (index) => ({ code: `C${index}`, city: "Porto" }) });
  const actor = { userId: fx.userId, ip: null, userAgent: null };
  ({ key } = await createApiKey(db, fx.workspaceId, actor, { name: "Wire" }));
  triggerCampaignId = await createTriggerCampaign(fx.workspaceId, fx.templateId, { triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG });
  ({ key: triggerOnlyKey } = await createApiKey(db, fx.workspaceId, actor, { name: "Trigger only", scope: { type: "trigger", campaignIds: [triggerCampaignId] } }));
  stranger = await createApiAccount();
  const [contact] = await db.select({ phone: contacts.phoneNumber }).from(contacts).where(eq(contacts.id, fx.contactIds[0]!));
  const contactPhone = contact!.phone;
  const [optedOut] = await db.select({ phone: contacts.phoneNumber }).from(contacts).where(eq(contacts.id, fx.optedOutIds[0]!));
  optedOutPhone = optedOut!.phone;
  const messageId = await createTestMessage({ workspaceId: fx.workspaceId, campaignId: triggerCampaignId });
  const segment = await call("createSegment", { json: { name: "Porto", filter: { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: "Porto" }] } }, expect: 201 });
  const job = await call("createImport", { json: importOptions(), expect: 201 });
  defaultSenderId = (await getSenderRow(db, fx.workspaceId)).id;
  ownerSession = { cookie: await sessionCookie({ userId: fx.userId, workspaceId: fx.workspaceId }), ...SAME_ORIGIN };
  conversationId = await conversationOf(testPhone(), new Date());
  journeyContactPhone = contactPhone;
  journeyRunId = (await insertRun(fx.workspaceId, triggerCampaignId, { status: "waiting", stepId: "pause", contactId: fx.contactIds[0]!, phone: contactPhone, history: [["remind", "sent"]] })).id;
  existing = (apiPath): Record<string, string> => {
    if (apiPath.startsWith("/api/v1/conversations/")) return { id: conversationId };
    if (apiPath.startsWith("/api/v1/journey-runs/")) return { id: journeyRunId };
    if (apiPath.includes("/campaigns/")) return { id: triggerCampaignId };
    if (apiPath.startsWith("/outbound/")) return { id: triggerCampaignId };
    if (apiPath.includes("/messages/")) return { id: messageId };
    if (apiPath.includes("/contacts/{idOrPhone}")) return { idOrPhone: contactPhone };
    if (apiPath.includes("/lists/")) return { id: fx.listId };
    if (apiPath.includes("/segments/{id}")) return { id: String(segment.body.id) };
    if (apiPath.includes("/imports/")) return { id: String(job.body.id) };
    if (apiPath.includes("/senders/")) return { id: defaultSenderId };
    return {};
  };
});

/** An extra template of the workspace that Meta has not approved (yet). */
async function pendingTemplate(): Promise<string> {
  const id = newId("tpl");
  await (await getDb()).insert(templates).values({ id, workspaceId: fx.workspaceId, name: `pending_${id.slice(-6).toLowerCase()}`, language: "en_US", category: "MARKETING", status: "PENDING", parameterFormat: "POSITIONAL", components: [] });
  return id;
}

/** The cursor of a one-item first page (the operation lists at least two items by then). */
async function nextCursorOf(operationId: string): Promise<string> {
  const page = await call(operationId, { query: { limit: "1" }, expect: 200 });
  expect(page.body.nextCursor, operationId).toEqual(expect.any(String));
  return String(page.body.nextCursor);
}

function nextWeek(): string {
  return new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 16);
}

/**
 * Failed authentications from BLOCKED_ADDRESS until it is refused: at once while it is blocked,
 * a hundred more when a new minute's window has begun. A block lasts at least a second, so the
 * request right after is refused too.
 */
async function blockAddress(): Promise<void> {
  const request = () => new Request("http://localhost/api/v1/me", { headers: { "x-api-key": "ss_invalid", "x-forwarded-for": BLOCKED_ADDRESS } });
  // Enough for a window that ends midway (its count starts again at 1): twice the limit and one.
  const attempts = 2 * FAILED_AUTH_LIMIT_PER_IP + 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if ((await getMe(request(), { params: Promise.resolve({}) })).status === 429) return;
  }
  throw new Error(`${BLOCKED_ADDRESS} is not blocked after ${attempts} failed authentications`);
}

function importOptions(fileName = "customers.csv") {
  return {
    fileName,
    columns: [
      { index: 0, header: "Phone", target: { type: "phone" } },
      { index: 1, header: "Name", target: { type: "name" } },
    ],
    updateExisting: true,
  };
}

const WIRE_INBOUND = { profileName: null, at: new Date(), text: null, payload: null, media: null, location: null, reaction: null, contextProviderMessageId: null };

/** The conversation `from` opens by writing to the fixture's default sender at `at`. */
async function conversationOf(from: string, at: Date): Promise<string> {
  const db = await getDb();
  const outcome = await recordInboundMessages(db, { workspaceId: fx.workspaceId, senderId: defaultSenderId }, [
    { ...WIRE_INBOUND, at, providerMessageId: `wamid.WIRE${newId("x")}`, from, kind: "text", text: "Where is my parcel?" },
  ]);
  const [row] = await db.select({ id: conversations.id }).from(conversations).where(and(eq(conversations.contactId, outcome.messages[0]!.contactId!), eq(conversations.senderId, defaultSenderId)));
  return row!.id;
}

afterAll(async () => {
  resetBlockedAddresses();
  await dispatchSettled();
  await flushTriggerRequests().catch(() => {});
});

describe("the API on the wire", () => {
  it("answers account and reference requests as documented", async () => {
    await call("getMe", { expect: 200 });
    await call("getMe", { key: null, headers: { authorization: `Bearer ${key}` }, expect: 200 });
    // A trigger-only key may ask who it is, and nothing else under /api/v1.
    await call("getMe", { triggerKey: true, expect: 200 });
    // The web app calls the same routes with its session.
    const cookie = await sessionCookie({ userId: fx.userId, workspaceId: fx.workspaceId });
    await call("getMe", { key: null, headers: { cookie }, expect: 200 });
    await call("listCampaigns", { key: null, headers: { cookie }, expect: 200 });
    await call("getOpenApiDocument", { key: null, expect: 200 });
  });

  it("answers every key-authenticated operation's shared failures as documented", async () => {
    const operations = Object.entries(document.paths).flatMap(([apiPath, ops]) => Object.values(ops).map((op) => ({ apiPath, op: op as { operationId: string; security?: unknown[]; parameters?: { name: string; in: string }[]; requestBody?: { required?: boolean; content: Record<string, unknown> } } })));
    process.env.TRUSTED_PROXY_HOPS = "1";
    // Each failure is logged; a hundred of them are noise here.
    const quiet = [vi.spyOn(console, "error").mockImplementation(() => {}), vi.spyOn(console, "warn").mockImplementation(() => {})];
    try {
      for (const { apiPath, op } of operations) {
        // Public operations only (`security: []`); the trigger's alternatives still take keys.
        if (op.security?.length === 0) continue;
        const params = existing(apiPath);
        const isTrigger = op.operationId.startsWith("triggerCampaign");
        await call(op.operationId, { params, key: null, expect: 401 });
        await call(op.operationId, { params, headers: { authorization: `Bearer ${stranger.key}` }, expect: 400 });
        await blockAddress();
        await call(op.operationId, { params, headers: { "x-forwarded-for": BLOCKED_ADDRESS }, expect: 429 });
        if (op.operationId !== "getMe") await call(op.operationId, { params: isTrigger ? { id: fx.campaignId } : params, key: triggerOnlyKey, expect: 403 });
        const query = new Set((op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
        if (query.has("cursor")) await call(op.operationId, { params, query: { cursor: "not-a-cursor" }, expect: 422 });
        if (query.has("limit")) await call(op.operationId, { params, query: { limit: "1000" }, expect: 422 });
        const content = op.requestBody?.content ?? {};
        // A key may not write senders: their bodies are checked as the signed-in owner sends them.
        const as = ADMIN_WRITES.has(op.operationId) ? { key: null, headers: ownerSession } : {};
        if (ADMIN_WRITES.has(op.operationId)) await call(op.operationId, { params, json: {}, expect: 403 });
        if (content["application/json"] && op.requestBody?.required) await call(op.operationId, { params, ...as, raw: { contentType: "application/json", text: "" }, expect: 400 });
        if (content["application/json"]) {
          await call(op.operationId, { params, ...as, raw: { contentType: "application/json", text: "{" }, expect: 400 });
          await call(op.operationId, { params, ...as, raw: { contentType: "text/plain", text: "hello" }, expect: 415 });
          await call(op.operationId, { params, ...as, raw: { contentType: "application/json", text: OVERSIZED_BODY }, expect: 413 });
          await call(op.operationId, { params, ...as, json: { unknownMember: true }, expect: 422 });
        } else if (content["text/csv"]) {
          await call(op.operationId, { params, json: { phone: "+14155552671" }, expect: 415 });
        }
      }
    } finally {
      delete process.env.TRUSTED_PROXY_HOPS;
      for (const spy of quiet) spy.mockRestore();
    }
    for (const apiPath of Object.keys(document.paths)) {
      const documented = Object.keys(document.paths[apiPath]!).map((m) => m.toUpperCase());
      for (const method of METHODS.filter((m) => !documented.includes(m))) {
        await recorder.callUndocumentedMethod(apiPath, method, { params: existing(apiPath), key, expect: 405 });
      }
    }
  });

  it("answers campaign requests as documented", async () => {
    const id = (r: WireResult) => ({ id: String(r.body.id) });
    const firstCampaigns = await call("listCampaigns", { query: { limit: "1", includeArchived: "true" }, expect: 200 });
    await call("listCampaigns", { query: { cursor: String(firstCampaigns.body.nextCursor), status: "active" }, expect: 200 });
    await call("listCampaigns", { query: { limit: "0" }, expect: 422 });
    const created = await call("createCampaign", { json: { name: "Wire trigger" }, expect: 201 });
    await call("getCampaign", { params: id(created), expect: 200 });
    await call("getCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("getCampaign", { params: { id: fx.campaignId }, key: stranger.key, expect: 404 });
    // A draft without a template fails the deploy checks.
    await call("deployCampaign", { params: id(created), expect: 422 });
    const configured = await call("updateCampaign", {
      params: id(created),
      json: { templateId: fx.templateId, triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG, version: created.body.version },
      expect: 200,
    });
    await call("updateCampaign", { params: id(created), json: { name: "Stale", version: 1 }, expect: 409 });
    await call("updateCampaign", { params: { id: "cmp_doesnotexist" }, json: { name: "Nobody" }, expect: 404 });
    await call("updateCampaign", { params: id(created), json: { name: "" }, expect: 422 });
    await call("deployCampaign", { params: id(created), json: { version: 1 }, expect: 409 });
    const deployed = await call("deployCampaign", { params: id(created), json: { version: configured.body.version }, expect: 200 });
    await call("deployCampaign", { params: id(created), expect: 409 });
    await call("deployCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    // Changing a live campaign writes a draft revision; publish and discard act on it.
    await call("updateCampaign", { params: id(created), json: { name: "Wire trigger v2" }, expect: 200 });
    await call("publishCampaign", { params: id(created), json: { version: 1 }, expect: 409 });
    await call("publishCampaign", { params: id(created), expect: 200 });
    await call("publishCampaign", { params: id(created), expect: 409 });
    await call("publishCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("updateCampaign", { params: id(created), json: { templateId: await pendingTemplate() }, expect: 200 });
    await call("publishCampaign", { params: id(created), expect: 422 });
    await call("discardCampaign", { params: id(created), expect: 200 });
    await call("discardCampaign", { params: id(created), json: { version: 1 }, expect: 409 });
    await call("discardCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    expect(deployed.body.deployment).not.toBeNull();
    await call("pauseCampaign", { params: id(created), json: { version: 1 }, expect: 409 });
    await call("pauseCampaign", { params: id(created), expect: 200 });
    await call("pauseCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("resumeCampaign", { params: id(created), json: { version: 1 }, expect: 409 });
    await call("resumeCampaign", { params: id(created), expect: 200 });
    await call("resumeCampaign", { params: id(created), expect: 409 });
    await call("resumeCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    // A paused campaign whose template is no longer approved fails the checks again.
    const broken = await createTriggerCampaign(fx.workspaceId, await pendingTemplate(), { status: "paused", triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG });
    await call("resumeCampaign", { params: { id: broken }, expect: 422 });
    await call("archiveCampaign", { params: id(created), json: { version: 1 }, expect: 409 });
    // Pending changes outlive the archive, but there is nothing live to publish them to.
    await call("updateCampaign", { params: id(created), json: { name: "Wire trigger v3" }, expect: 200 });
    await call("archiveCampaign", { params: id(created), expect: 200 });
    await call("publishCampaign", { params: id(created), expect: 409 });
    await call("archiveCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("testSendCampaign", { params: id(created), json: { phones: ["+14155552671"], request: { code: "T" } }, expect: 409 });
    await call("pauseCampaign", { params: id(created), expect: 409 });
    await call("updateCampaign", { params: id(created), json: { name: "Archived" }, expect: 409 });
    await call("unarchiveCampaign", { params: id(created), json: { version: 1 }, expect: 409 });
    await call("unarchiveCampaign", { params: id(created), expect: 200 });
    await call("unarchiveCampaign", { params: id(created), expect: 409 });
    await call("unarchiveCampaign", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("listTemplates", { expect: 200 });
  });

  it("answers trigger requests as documented, on both paths", async () => {
    const draft = await createTriggerCampaign(fx.workspaceId, fx.templateId, { status: "draft", triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG });
    const unsendable = await createTriggerCampaign(fx.workspaceId, await pendingTemplate(), { triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG });
    const slow = await createTriggerCampaign(fx.workspaceId, fx.templateId, { triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG, rateLimitPerMinute: 1 });
    for (const operationId of ["triggerCampaign", "triggerCampaignOutbound"]) {
      const params = { id: triggerCampaignId };
      const accepted = await call(operationId, { params, json: { phone: testPhone(), code: "A1" }, expect: 202 });
      messageIds.push(String(accepted.body.id));
      await call(operationId, { params, json: [{ phone: testPhone(), code: "B1" }, { phone: testPhone(), code: "B2" }], expect: 202 });
      const skipped = await call(operationId, { params, json: { phone: optedOutPhone, code: "O" }, expect: 202 });
      expect(skipped.body).toMatchObject({ status: "skipped", error: { code: "opted_out" } });
      await call(operationId, { params, triggerKey: true, json: { phone: testPhone(), code: "K" }, expect: 202 });
      await call(operationId, { params, query: { dryRun: "true" }, json: { phone: testPhone(), code: "D" }, expect: 200 });
      await call(operationId, { params, query: { dryRun: "true" }, json: [{ phone: testPhone(), code: "D" }], expect: 200 });
      await call(operationId, { params, headers: { "idempotency-key": " " }, json: { phone: testPhone() }, expect: 400 });
      const idempotencyKey = `wire-${operationId}`;
      await call(operationId, { params, headers: { "idempotency-key": idempotencyKey }, json: { phone: "+14155552671", code: "I" }, expect: 202 });
      await call(operationId, { params, headers: { "idempotency-key": idempotencyKey }, json: { phone: "+14155552672", code: "I" }, expect: 422 });
      await call(operationId, { params, json: { phone: "4155552671" }, expect: 422 });
      await call(operationId, { params, json: Array.from({ length: 101 }, () => ({ phone: testPhone(), code: "X" })), expect: 422 });
      await call(operationId, { params: { id: "cmp_doesnotexist" }, json: { phone: testPhone() }, expect: 404 });
      await call(operationId, { params: { id: draft }, json: { phone: testPhone() }, expect: 409 });
      await call(operationId, { params: { id: fx.campaignId }, json: { phone: testPhone() }, expect: 409 });
      await call(operationId, { params: { id: unsendable }, json: { phone: testPhone() }, expect: 409 });
      // One request a minute: the second in a window is refused (a third, should a window end in between).
      let status = 0;
      for (let attempt = 0; attempt < 3 && status !== 429; attempt++) {
        ({ status } = await call(operationId, { params: { id: slow }, json: { phone: testPhone(), code: "S" }, expect: [202, 429] }));
      }
      expect(status, `${operationId} over the campaign's rate`).toBe(429);
    }
  });

  it("answers journey requests as documented: a journey campaign's trigger enters runs, a test run", async () => {
    const db = await getDb();
    const journeyCampaign = await createTriggerCampaign(fx.workspaceId, fx.templateId, { triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG });
    await setLiveJourney(db, journeyCampaign, {
      firstStepId: "hello",
      steps: [{ id: "hello", type: "send", templateId: fx.templateId, messageConfig: PROMO_MESSAGE_CONFIG, next: null }],
    });
    const params = { id: journeyCampaign };
    const entered = await call("triggerCampaign", { params, json: { phone: testPhone(), code: "J1" }, expect: 202 });
    expect(entered.body).toMatchObject({ object: "journey_run", status: "active" });
    await call("triggerCampaign", { params, json: [{ phone: testPhone(), code: "J2" }, { phone: optedOutPhone, code: "J3" }], expect: 202 });
    await call("testCampaignJourney", { params, json: { phone: "+14155552671", request: { code: "T" }, timeScale: 60 }, expect: 202 });
    await call("testCampaignJourney", { params: { id: "cmp_doesnotexist" }, json: { phone: "+14155552671" }, expect: 404 });
    await call("testCampaignJourney", { params: { id: fx.campaignId }, json: { phone: "+14155552671" }, expect: 409 });
    await db.update(campaigns).set({ status: "archived" }).where(eq(campaigns.id, journeyCampaign));
    await call("testCampaignJourney", { params, json: { phone: "+14155552671" }, expect: 409 });
    await call("testCampaignJourney", { params: { id: triggerCampaignId }, json: { phone: "+14155552671" }, expect: 422 });
  });

  it("answers campaign source requests and signed deliveries as documented", async () => {
    const shop = await createTriggerCampaign(fx.workspaceId, fx.templateId, { triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG });
    const params = { id: shop };
    const missing = { id: "cmp_doesnotexist" };
    const bulk = { id: fx.campaignId };
    await call("getCampaignSource", { params, expect: 200 });
    await call("getCampaignSource", { params: missing, expect: 404 });
    await call("getCampaignSource", { params: bulk, expect: 409 });
    await call("setCampaignSourceSecret", { params, expect: 409 });
    await call("putCampaignSource", { params, json: { kind: "shopify", topics: ["orders/create"] }, expect: 200 });
    await call("putCampaignSource", { params: missing, json: { kind: "shopify" }, expect: 404 });
    await call("putCampaignSource", { params: bulk, json: { kind: "shopify" }, expect: 409 });
    await call("putCampaignSource", { params, json: { kind: "paypal" }, expect: 422 });
    await call("setCampaignSourceSecret", { params: missing, expect: 404 });
    await call("setCampaignSourceSecret", { params: bulk, expect: 409 });
    await call("setCampaignSourceSecret", { params, json: { secret: "short" }, expect: 422 });
    const secret = "shpss_wire_secret_1";
    const set = await call("setCampaignSourceSecret", { params, json: { secret, overlapHours: 0 }, expect: 201 });
    expect(set.body.secret).toBe(secret);
    await call("setCampaignSourceSecret", { params, expect: 201 });
    await call("setCampaignSourceSecret", { params, json: { secret, overlapHours: 0 }, expect: 201 });
    for (const operationId of ["triggerCampaign", "triggerCampaignOutbound"]) {
      const text = JSON.stringify({ phone: testPhone(), code: "SH" });
      const signed = (topic: string, id: string, signature = createHmac("sha256", secret).update(text).digest("base64")) => ({
        params,
        key: null,
        raw: { contentType: "application/json", text },
        headers: { "x-shopify-hmac-sha256": signature, "x-shopify-topic": topic, "x-shopify-webhook-id": id },
      });
      await call(operationId, { ...signed("orders/create", `wire-${operationId}`), expect: 202 });
      await call(operationId, { ...signed("orders/create", `wire-${operationId}`), expect: 202 });
      const ignored = await call(operationId, { ...signed("orders/updated", `wire-ignored-${operationId}`), expect: 202 });
      expect(ignored.body.status).toBe("ignored");
      await call(operationId, { ...signed("orders/create", `wire-bad-${operationId}`, "bm90IGl0"), expect: 401 });
    }
    await flushTriggerRequests();
    const log = await call("listCampaignRequests", { params, query: { outcome: "ignored", topic: "orders/updated" }, expect: 200 });
    expect(log.body.data).toHaveLength(2);
  });

  it("answers message, log and request-log reads as documented", async () => {
    await dispatchSettled();
    await flushTriggerRequests();
    const params = { id: triggerCampaignId };
    await call("getMessage", { params: { id: messageIds[0]! }, expect: 200 });
    await call("getMessage", { params: { id: "msg_doesnotexist" }, expect: 404 });
    const firstMessages = await call("listCampaignMessages", { params, query: { limit: "1", include: "counts", status: "queued,sent,delivered,read,failed,skipped" }, expect: 200 });
    await call("listCampaignMessages", { params, query: { cursor: String(firstMessages.body.nextCursor), phone: "351", from: "2020-01-01", to: "2099-12-31T00:00:00Z" }, expect: 200 });
    await call("listCampaignMessages", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("listCampaignMessages", { params, query: { limit: "0" }, expect: 422 });
    const csv = await call("exportCampaignLogs", { params, query: { attributes: "true", status: "queued,sent,delivered", phone: "351", from: "2020-01-01", to: "2099-12-31" }, expect: 200 });
    expect(csv.text).toMatch(/^created_at,message_id/);
    // Replies to the campaign's messages are listed and exported beside them, with their direction.
    await insertInboundRows(fx.workspaceId, triggerCampaignId, [
      { phoneNumber: "+351912345678", kind: "button", text: "Stop promotions", payload: "Stop promotions" },
      { phoneNumber: "+351912345678", kind: "media", text: null, media: { id: "m1", mimeType: "image/jpeg", caption: null, filename: null, kind: "image" } },
    ]);
    const replies = await call("listCampaignMessages", { params, query: { direction: "inbound", limit: "1", include: "counts" }, expect: 200 });
    expect((replies.body.data as { direction: string }[]).map((message) => message.direction)).toEqual(["inbound"]);
    await call("listCampaignMessages", { params, query: { cursor: String(replies.body.nextCursor), direction: "inbound" }, expect: 200 });
    await call("listCampaignMessages", { params, query: { limit: "3" }, expect: 200 });
    await call("listCampaignMessages", { params, query: { direction: "both" }, expect: 422 });
    const replyCsv = await call("exportCampaignLogs", { params, query: { direction: "inbound", phone: "351" }, expect: 200 });
    expect(replyCsv.text).toMatch(/,received,,,,,,,inbound,reply,\r\n/);
    // The replied filter: messages the contact replied to, or not; counts ignore it.
    const replied = await call("listCampaignMessages", { params, query: { replied: "true", include: "counts" }, expect: 200 });
    expect(replied.body.data).toEqual([]);
    expect(replied.body.counts).toMatchObject({ replied: 0 });
    await call("listCampaignMessages", { params, query: { replied: "false", limit: "1" }, expect: 200 });
    await call("listCampaignMessages", { params, query: { replied: "maybe" }, expect: 422 });
    await call("exportCampaignLogs", { params, query: { replied: "true" }, expect: 200 });
    await call("exportCampaignLogs", { params, query: { direction: "sideways" }, expect: 422 });
    await call("exportCampaignLogs", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("exportCampaignLogs", { params, query: { from: "yesterday" }, expect: 422 });
    const requests = await call("listCampaignRequests", { params, query: { outcome: "all", limit: "1" }, expect: 200 });
    expect(requests.body.data?.length).toBeGreaterThan(0);
    await call("listCampaignRequests", { params, query: { outcome: "rejected", cursor: String(requests.body.nextCursor) }, expect: 200 });
    await call("listCampaignRequests", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    await call("listCampaignRequests", { params, query: { outcome: "maybe" }, expect: 422 });
  });

  it("answers bulk campaign requests as documented", async () => {
    const audience = { listIds: [fx.listId], segmentIds: [] };
    await call("countAudience", { json: audience, expect: 200 });
    await call("countAudience", { json: { listIds: ["lst_doesnotexist"] }, expect: 404 });
    await call("previewBulkMessage", { json: { audience, templateId: fx.templateId, messageConfig: PROMO_MESSAGE_CONFIG, index: 0 }, expect: 200 });
    await call("previewBulkMessage", { json: { audience: { listIds: ["lst_doesnotexist"] }, templateId: fx.templateId, messageConfig: PROMO_MESSAGE_CONFIG }, expect: 404 });
    const params = { id: fx.campaignId };
    const trigger = { id: triggerCampaignId };
    const missing = { id: "cmp_doesnotexist" };
    await call("testSendCampaign", { params, json: { phones: ["+14155552671"] }, expect: 202 });
    await call("testSendCampaign", { params: missing, json: { phones: ["+14155552671"] }, expect: 404 });
    await call("getBulkLaunchCheck", { params, expect: 200 });
    await call("getBulkLaunchCheck", { params: missing, expect: 404 });
    await call("getBulkLaunchCheck", { params: trigger, expect: 409 });
    await call("getBulkProgress", { params, expect: 200 });
    await call("getBulkProgress", { params: missing, expect: 404 });
    await call("getBulkProgress", { params: trigger, expect: 409 });
    // An empty audience fails the launch checks.
    const empty = await call("createCampaign", { json: { kind: "bulk", name: "Nobody", audience: { listIds: [], segmentIds: [] }, templateId: fx.templateId, messageConfig: PROMO_MESSAGE_CONFIG }, expect: 201 });
    const emptyParams = { id: String(empty.body.id) };
    await call("launchBulkCampaign", { params: emptyParams, expect: 422 });
    await call("scheduleBulkCampaign", { params: emptyParams, json: { scheduledAt: nextWeek(), timeZone: "Europe/Lisbon" }, expect: 422 });
    const noTemplate = await call("createCampaign", { json: { kind: "bulk", name: "No template", audience }, expect: 201 });
    await call("testSendCampaign", { params: { id: String(noTemplate.body.id) }, json: { phones: ["+14155552671"] }, expect: 422 });
    const later = await call("createCampaign", { json: { kind: "bulk", name: "Later", audience, templateId: fx.templateId, messageConfig: PROMO_MESSAGE_CONFIG }, expect: 201 });
    const laterParams = { id: String(later.body.id) };
    await call("scheduleBulkCampaign", { params: laterParams, json: { scheduledAt: nextWeek(), timeZone: "Europe/Lisbon", version: 99 }, expect: 409 });
    await call("scheduleBulkCampaign", { params: laterParams, json: { scheduledAt: nextWeek(), timeZone: "Europe/Lisbon" }, expect: 200 });
    await call("archiveCampaign", { params: laterParams, expect: 409 });
    await call("scheduleBulkCampaign", { params: missing, json: { scheduledAt: nextWeek(), timeZone: "Europe/Lisbon" }, expect: 404 });
    await call("scheduleBulkCampaign", { params: trigger, json: { scheduledAt: nextWeek(), timeZone: "Europe/Lisbon" }, expect: 409 });
    await call("cancelBulkCampaign", { params: laterParams, json: { version: 1 }, expect: 409 });
    await call("cancelBulkCampaign", { params: laterParams, expect: 200 });
    await call("cancelBulkCampaign", { params: { id: String(empty.body.id) }, expect: 409 });
    await call("cancelBulkCampaign", { params: missing, expect: 404 });
    await call("cancelBulkCampaign", { params: trigger, expect: 409 });
    await call("scheduleBulkCampaign", { params: laterParams, json: { scheduledAt: nextWeek(), timeZone: "Europe/Lisbon" }, expect: 409 });
    await call("launchBulkCampaign", { params: laterParams, expect: 409 });
    await call("launchBulkCampaign", { params: missing, expect: 404 });
    await call("launchBulkCampaign", { params: trigger, expect: 409 });
    await call("launchBulkCampaign", { params, json: { version: 99 }, expect: 409 });
    await call("launchBulkCampaign", { params, json: { allowTierWait: false }, expect: 200 });
    const db = await getDb();
    // While WhatsApp has its template paused, a paused bulk campaign cannot resume.
    await call("pauseCampaign", { params, expect: 200 });
    await db.update(templates).set({ status: "PAUSED" }).where(eq(templates.id, fx.templateId));
    await call("resumeCampaign", { params, expect: 409 });
    await db.update(templates).set({ status: "APPROVED" }).where(eq(templates.id, fx.templateId));
    await call("resumeCampaign", { params, expect: 200 });
    await dispatchSettled();
    // Retargeting reads the finished campaign's failures.
    await db.update(messages).set({ status: "failed", errorCode: "131026", errorReason: "Message undeliverable." }).where(and(eq(messages.campaignId, fx.campaignId), eq(messages.source, "bulk")));
    await db.update(campaigns).set({ status: "completed", completedAt: new Date() }).where(eq(campaigns.id, fx.campaignId));
    await call("retargetBulkCampaign", { params, json: { audience: "failed", name: "Wire retarget" }, expect: 201 });
    await call("retargetBulkCampaign", { params: laterParams, json: { audience: "failed" }, expect: 422 });
    await call("retargetBulkCampaign", { params: emptyParams, json: { audience: "failed" }, expect: 409 });
    await call("retargetBulkCampaign", { params: missing, json: { audience: "failed" }, expect: 404 });
    await call("retargetBulkCampaign", { params: trigger, json: { audience: "failed" }, expect: 409 });
  });

  it("answers contact requests as documented", async () => {
    const phone = testPhone();
    const created = await call("createContact", { json: { phone, name: "Rita", attributes: { city: "Faro" } }, expect: 201 });
    await call("createContact", { json: { phone, optedOut: false }, expect: 200 });
    await call("createContact", { json: { phone, name: "Not Rita", ifExists: "error" }, expect: 409 });
    await call("countContacts", { expect: 200 });
    await call("countContacts", { query: { search: "Rita", optedOut: "false" }, expect: 200 });
    await call("countContacts", { query: { listId: "lst_doesnotexist" }, expect: 404 });
    await call("countContacts", { query: { optedOut: "maybe" }, expect: 422 });
    const byId = { idOrPhone: String(created.body.id) };
    await call("getContact", { params: { idOrPhone: phone }, expect: 200 });
    await call("getContact", { params: byId, expect: 200 });
    await call("getContact", { params: { idOrPhone: "+14155550000" }, expect: 404 });
    await call("getContact", { params: { idOrPhone: "not-a-phone" }, expect: 422 });
    const other = testPhone();
    await call("upsertContact", { params: { idOrPhone: other }, json: { name: "Nuno" }, expect: 201 });
    await call("upsertContact", { params: { idOrPhone: other }, json: { attributes: { city: "Braga" } }, expect: 200 });
    // A segment that is neither an id nor a phone (here a NUL) is refused as not found before any query.
    await call("upsertContact", { params: { idOrPhone: "+1415\u0000" }, json: { name: "X" }, expect: 404 });
    await call("updateContact", { params: byId, json: { name: null, attributes: { city: null, vip: true } }, expect: 200 });
    await call("updateContact", { params: { idOrPhone: "ctc_doesnotexist" }, json: { name: "X" }, expect: 404 });
    await call("optOutContact", { params: byId, expect: 200 });
    await call("optOutContact", { params: { idOrPhone: "ctc_doesnotexist" }, expect: 404 });
    await call("optOutContact", { params: { idOrPhone: "123" }, expect: 422 });
    await call("optInContact", { params: byId, expect: 200 });
    await call("optInContact", { params: { idOrPhone: "ctc_doesnotexist" }, expect: 404 });
    await call("optInContact", { params: { idOrPhone: "123" }, expect: 422 });
    await call("listContacts", { query: { search: "Rita", limit: "10", optedOut: "false" }, expect: 200 });
    const members = await call("listContacts", { query: { listId: fx.listId, limit: "1" }, expect: 200 });
    await call("listContacts", { query: { listId: fx.listId, cursor: String(members.body.nextCursor) }, expect: 200 });
    await call("listContacts", { query: { segmentId: existing("/api/v1/segments/{id}").id! }, expect: 200 });
    await call("listContacts", { query: { listId: "lst_doesnotexist" }, expect: 404 });
    await call("listContacts", { query: { limit: "0" }, expect: 422 });
    const [withMessages] = await (await getDb()).select({ phone: messages.phoneNumber }).from(messages).where(eq(messages.campaignId, triggerCampaignId)).limit(1);
    await call("listContactMessages", { params: { idOrPhone: withMessages!.phone }, query: { limit: "5" }, expect: 200 });
    // The timeline holds the contact's own messages too (both directions, one cursor).
    const [sender] = await (await getDb()).select({ id: senders.id }).from(senders).where(eq(senders.workspaceId, fx.workspaceId));
    await recordInboundMessages(await getDb(), { workspaceId: fx.workspaceId, senderId: sender!.id }, [
      { ...WIRE_INBOUND, providerMessageId: `wamid.WIRE${newId("x")}`, from: withMessages!.phone, kind: "text", text: "Thanks!" },
      { ...WIRE_INBOUND, providerMessageId: `wamid.WIRE${newId("x")}`, from: withMessages!.phone, kind: "location", location: { latitude: 41.15, longitude: -8.61, name: null, address: "Porto" } },
    ]);
    const timeline = await call("listContactMessages", { params: { idOrPhone: withMessages!.phone }, query: { limit: "2" }, expect: 200 });
    expect((timeline.body.data as { direction: string }[]).map((message) => message.direction)).toEqual(["inbound", "inbound"]);
    await call("listContactMessages", { params: { idOrPhone: withMessages!.phone }, query: { cursor: String(timeline.body.nextCursor) }, expect: 200 });
    await call("listContactMessages", { params: { idOrPhone: withMessages!.phone }, query: { direction: "outbound" }, expect: 200 });
    await call("listContactMessages", { params: { idOrPhone: withMessages!.phone }, query: { direction: "sideways" }, expect: 422 });
    await call("listContactMessages", { params: { idOrPhone: "ctc_doesnotexist" }, expect: 404 });
    await call("listContactMessages", { params: { idOrPhone: "123" }, expect: 422 });
    await call("deleteContact", { params: byId, expect: 204 });
    await call("deleteContact", { params: byId, expect: 404 });
    await call("deleteContact", { params: { idOrPhone: "123" }, expect: 422 });
    await call("defineContactAttribute", { json: { key: "points", type: "number" }, expect: 201 });
    await call("defineContactAttribute", { json: { key: "points", type: "number" }, expect: 200 });
    await call("defineContactAttribute", { json: { key: "points", type: "string" }, expect: 409 });
    await call("listContactAttributes", { expect: 200 });
    await call("updateContact", { params: { idOrPhone: other }, json: { attributes: { points: "many" } }, expect: 422 });
  });

  it("answers list and segment requests as documented", async () => {
    const list = await call("createList", { raw: { contentType: "application/json; charset=utf-8", text: JSON.stringify({ name: "Wire list" }) }, expect: 201 });
    await call("listLists", { query: { limit: "10", cursor: await nextCursorOf("listLists") }, expect: 200 });
    await call("listLists", { query: { limit: "0" }, expect: 422 });
    await call("createList", { json: { name: "Wire list" }, expect: 409 });
    const params = { id: String(list.body.id) };
    const missing = { id: "lst_doesnotexist" };
    await call("getList", { params, expect: 200 });
    await call("getList", { params: missing, expect: 404 });
    await call("renameList", { params, json: { name: "Wire list 2" }, expect: 200 });
    await call("renameList", { params, json: { name: "Customers" }, expect: 409 });
    await call("renameList", { params: missing, json: { name: "X" }, expect: 404 });
    await call("addListContacts", { params, json: { contactIds: [fx.contactIds[0]!, "ctc_doesnotexist"], phones: ["+14155550001"] }, expect: 200 });
    await call("addListContacts", { params: missing, json: { contactIds: [fx.contactIds[0]!] }, expect: 404 });
    await call("addListContacts", { params, json: { segmentId: existing("/api/v1/segments/{id}").id! }, expect: 200 });
    await call("addListContacts", { params, json: { segmentId: "seg_doesnotexist" }, expect: 404 });
    await call("removeListContacts", { params, json: { contactIds: [fx.contactIds[0]!] }, expect: 200 });
    await call("removeListContacts", { params: missing, json: { contactIds: [fx.contactIds[0]!] }, expect: 404 });
    await call("deleteList", { params, expect: 204 });
    await call("deleteList", { params, expect: 404 });

    const filter = { match: "all", conditions: [{ field: "list", op: "in", listId: fx.listId }, { field: "opted_out", value: false }] };
    const segment = await call("createSegment", { json: { name: "Wire segment", filter }, expect: 201 });
    await call("listSegments", { query: { limit: "10", cursor: await nextCursorOf("listSegments") }, expect: 200 });
    await call("listSegments", { query: { limit: "0" }, expect: 422 });
    await call("createSegment", { json: { name: "Wire segment", filter }, expect: 409 });
    const segmentParams = { id: String(segment.body.id) };
    const noSegment = { id: "seg_doesnotexist" };
    await call("getSegment", { params: segmentParams, expect: 200 });
    await call("getSegment", { params: noSegment, expect: 404 });
    await call("updateSegment", { params: segmentParams, json: { name: "Wire segment 2" }, expect: 200 });
    await call("updateSegment", { params: segmentParams, json: { name: "Porto" }, expect: 409 });
    await call("updateSegment", { params: noSegment, json: { name: "X" }, expect: 404 });
    await call("countSegment", { params: segmentParams, expect: 200 });
    await call("countSegment", { params: noSegment, expect: 404 });
    await call("countSegmentFilter", { json: { filter }, expect: 200 });
    await call("deleteSegment", { params: segmentParams, expect: 204 });
    await call("deleteSegment", { params: segmentParams, expect: 404 });
  });

  it("answers sender requests as documented: any credential reads, the signed-in owner writes", async () => {
    const owner = { key: null, headers: ownerSession };
    const fr = await call("createSender", {
      ...owner,
      json: { provider: "whatsapp", name: "Brand FR", phoneNumberId: "106540352242922", wabaId: "102290129340398", accessToken: "EAAG-wire-token" },
      expect: 201,
    });
    expect(JSON.stringify(fr.body)).not.toContain("EAAG-wire-token");
    await call("createSender", { ...owner, json: { provider: "whatsapp", phoneNumberId: "not a number", wabaId: "1" }, expect: 422 });
    await call("createSender", { json: { provider: "sandbox" }, expect: 403 });
    const spare = await call("createSender", { ...owner, json: { provider: "sandbox", name: "Spare" }, expect: 201 });
    await call("listSenders", { query: { limit: "10", cursor: await nextCursorOf("listSenders") }, expect: 200 });
    await call("listSenders", { key: null, headers: { cookie: ownerSession.cookie! }, expect: 200 });
    const params = { id: String(fr.body.id) };
    const missing = { id: "snd_doesnotexist" };
    const theirs = await getSenderRow(await getDb(), stranger.workspaceId);
    await call("getSender", { params, expect: 200 });
    await call("getSender", { params: missing, expect: 404 });
    await call("getSender", { params: { id: theirs.id }, expect: 404 });
    await call("updateSender", { params, ...owner, json: { name: "Brand France" }, expect: 200 });
    await call("updateSender", { params: missing, ...owner, json: { name: "X" }, expect: 404 });
    await call("updateSender", { params, json: { name: "By key" }, expect: 403 });

    // Campaigns name their sender: another workspace's is 404; templates are listed per sender.
    await call("createCampaign", { json: { name: "Elsewhere", senderId: theirs.id }, expect: 404 });
    const frCampaign = await call("createCampaign", { json: { name: "FR welcome", senderId: params.id }, expect: 201 });
    expect(frCampaign.body.senderId).toBe(params.id);
    await call("listTemplates", { query: { senderId: params.id }, expect: 200 });
    await call("listTemplates", { query: { senderId: "snd_doesnotexist" }, expect: 404 });
    await call("listTemplates", { query: { senderId: "x".repeat(65) }, expect: 422 });

    // Templates written in the app go to the sender's business account (here the fake Graph API).
    const template = { name: "wire_winter_sale", category: "MARKETING", language: "en_US", body: "Hi {{first_name}}, our winter sale starts today with new offers.", examples: { first_name: "Maria" } };
    await call("submitTemplate", { json: { ...template, senderId: params.id }, expect: 201 });
    await call("submitTemplate", { json: { ...template, senderId: params.id }, expect: 409 });
    await call("submitTemplate", { json: { ...template, senderId: "snd_doesnotexist" }, expect: 404 });
    await call("submitTemplate", { json: { ...template, body: "{{first_name}}" }, expect: 422 });
    try {
      fakeGraph().handle(() => graphError(2388299, "Variables can't be at the start or end of the template.", 400));
      await call("submitTemplate", { json: { ...template, name: "wire_refused", senderId: params.id }, expect: 422 });
      // An outage page instead of an answer: not a refusal of the template.
      fakeGraph().handle(() => ({ status: 502, text: "<html>Bad Gateway</html>" }));
      await call("submitTemplate", { json: { ...template, name: "wire_unavailable", senderId: params.id }, expect: 502 });
    } finally {
      fakeGraph().handle(defaultGraphHandler);
    }
    await (await getDb()).update(senders).set({ accessTokenEncrypted: null }).where(eq(senders.id, params.id));
    await call("submitTemplate", { json: { ...template, name: "wire_no_token", senderId: params.id }, expect: 409 });

    await call("deleteSender", { params: { id: defaultSenderId }, ...owner, expect: 409 });
    await call("deleteSender", { params, ...owner, expect: 409 });
    await call("deleteSender", { params, ...owner, query: { replacement: params.id }, expect: 422 });
    await call("deleteSender", { params, expect: 403 });
    await call("deleteSender", { params, ...owner, query: { replacement: String(spare.body.id) }, expect: 204 });
    await call("deleteSender", { params, ...owner, expect: 404 });
    await call("updateSender", { params: { id: String(spare.body.id) }, ...owner, json: { isDefault: true }, expect: 200 });
    await call("updateSender", { params: { id: defaultSenderId }, ...owner, json: { isDefault: true }, expect: 200 });
  });

  it("answers import and bulk upsert requests as documented", async () => {
    const job = await call("createImport", { json: importOptions("wire.csv"), expect: 201 });
    const params = { id: String(job.body.id) };
    const missing = { id: "imp_doesnotexist" };
    const csv = `Phone,Name\r\n${testPhone()},Rita\r\nnot a phone,Nobody\r\n`;
    await call("uploadImportFile", { params: missing, raw: { contentType: "text/csv", text: csv }, expect: 404 });
    await call("uploadImportFile", { params, raw: { contentType: "text/csv", text: "" }, expect: 422 });
    await call("uploadImportFile", { params, raw: { contentType: "text/csv", text: csv }, expect: 202 });
    await call("uploadImportFile", { params, raw: { contentType: "text/csv", text: csv }, expect: 409 });
    await call("uploadImportFile", { params, raw: { contentType: "text/csv", text: csv }, headers: { "content-length": String(300 * 1024 * 1024) }, expect: 413 });
    // The merge runs after the response.
    await expect.poll(async () => (await call("getImport", { params, expect: 200 })).body.status, { timeout: 20_000, interval: 50 }).toBe("completed");
    await call("getImport", { params: missing, expect: 404 });
    const rejected = await call("downloadImportRejectedRows", { params, expect: 200 });
    expect(rejected.text).toContain("not a phone");
    await call("downloadImportRejectedRows", { params: missing, expect: 404 });
    await call("listImports", { query: { limit: "10", cursor: await nextCursorOf("listImports") }, expect: 200 });
    await call("listImports", { query: { limit: "0" }, expect: 422 });
    await call("bulkUpsertContacts", { json: [{ phone: testPhone(), name: "Ana", attributes: { city: "Porto" } }, { phone: testPhone(), optedOut: true }], expect: 200 });
    await call("bulkUpsertContacts", { raw: { contentType: "text/csv", text: `phone,name,city\r\n${testPhone()},Rui,Lisbon\r\n` }, expect: 202 });
    await call("bulkUpsertContacts", { json: [{ phone: "123" }], expect: 422 });
    await call("bulkUpsertContacts", { json: Array.from({ length: 1001 }, () => ({ phone: testPhone() })), expect: 422 });
    await call("bulkUpsertContacts", { raw: { contentType: "text/csv", text: "name,city\r\nRui,Lisbon\r\n" }, expect: 422 });
    const mismatched = await call("createImport", { json: importOptions("mismatched.csv"), expect: 201 });
    await call("uploadImportFile", { params: { id: String(mismatched.body.id) }, raw: { contentType: "text/csv; charset=utf-8", text: "Mobile,Name\r\n+14155552671,Rita\r\n" }, expect: 422 });
  });

  it("answers conversation requests as documented, with ETags for pollers", async () => {
    const params = { id: conversationId };
    const missing = { id: "cnv_doesnotexist" };
    const second = await conversationOf(testPhone(), new Date());
    const list = await call("listConversations", { query: { limit: "1", status: "all", assigned: "unassigned", unread: "true" }, expect: 200 });
    await call("listConversations", { query: { cursor: String(list.body.nextCursor), senderId: defaultSenderId, search: "351" }, expect: 200 });
    await call("listConversations", { headers: { "if-none-match": String(list.headers.get("etag")) }, query: { limit: "1", status: "all", assigned: "unassigned", unread: "true" }, expect: 304 });
    await call("listConversations", { query: { assigned: "mine" }, expect: 422 });
    const one = await call("getConversation", { params, expect: 200 });
    await call("getConversation", { params, headers: { "if-none-match": String(one.headers.get("etag")) }, expect: 304 });
    await call("getConversation", { params: missing, expect: 404 });
    await call("getConversation", { params, key: stranger.key, expect: 404 });

    const opened = await call("openConversation", { json: { contact: optedOutPhone }, expect: 201 });
    expect(opened.body).toMatchObject({ object: "conversation", window: { open: false, endsAt: null } });
    const existingOne = await call("openConversation", { json: { contact: optedOutPhone, senderId: defaultSenderId }, expect: 200 });
    expect(existingOne.body.id).toBe(opened.body.id);
    await call("openConversation", { json: { contact: "+14155550000" }, expect: 404 });
    await call("openConversation", { json: { contact: "" }, expect: 422 });
    const reply = await call("replyToConversation", { params, json: { type: "text", text: "It left our warehouse this morning." }, expect: 202 });
    expect(reply.body).toMatchObject({ direction: "outbound", source: "reply", campaignId: null, status: "queued" });
    const variables = { "header.1": "Maria", "body.1": "Maria", "body.2": "SAVE10", "body.3": "Porto", "button.0.1": "SAVE10" };
    await call("replyToConversation", { params: { id: second }, json: { type: "template", templateId: fx.templateId, variables }, expect: 202 });
    await call("replyToConversation", { params, json: { type: "template", templateId: fx.templateId, variables: {} }, expect: 422 });
    await call("replyToConversation", { params, json: { type: "image", url: "http://cdn.example.com/photo.jpg" }, expect: 422 });
    await call("replyToConversation", { params, json: { type: "text", text: "x".repeat(4097) }, expect: 422 });
    await call("replyToConversation", { params, json: { type: "sticker" }, expect: 422 });
    await call("replyToConversation", { params: missing, json: { type: "text", text: "Hello" }, expect: 404 });
    const lapsed = await conversationOf(testPhone(), new Date(Date.now() - 30 * 3_600_000));
    const closed = await call("replyToConversation", { params: { id: lapsed }, json: { type: "text", text: "Hello" }, expect: 409 });
    expect(closed.body.windowEndsAt).toEqual(expect.any(String));
    const optedOut = await conversationOf(optedOutPhone, new Date());
    await call("replyToConversation", { params: { id: optedOut }, json: { type: "template", templateId: fx.templateId, variables }, expect: 409 });
    const replaced = newId("cnv");
    await (await getDb()).insert(conversations).values({ id: replaced, workspaceId: fx.workspaceId, contactId: fx.contactIds[1]!, senderId: "snd_replaced", lastInboundAt: new Date() });
    await call("replyToConversation", { params: { id: replaced }, json: { type: "text", text: "Hello" }, expect: 409 });

    // The replies above go out in the background; a status they change meanwhile would change the ETag.
    await dispatchSettled();
    const timeline = await call("listConversationTimeline", { params, query: { limit: "1" }, expect: 200 });
    await call("listConversationTimeline", { params, query: { cursor: String(timeline.body.nextCursor) }, expect: 200 });
    await call("listConversationTimeline", { params, query: { limit: "1" }, headers: { "if-none-match": String(timeline.headers.get("etag")) }, expect: 304 });
    await call("listConversationTimeline", { params: missing, expect: 404 });

    await call("addConversationNote", { params, json: { body: "Carrier says it's at the depot." }, expect: 201 });
    await call("addConversationNote", { params, json: { body: " " }, expect: 422 });
    await call("addConversationNote", { params: missing, json: { body: "Nobody" }, expect: 404 });
    const assigned = await call("assignConversation", { params, json: { assigneeId: fx.userId }, expect: 200 });
    expect(assigned.body.assignee).toMatchObject({ id: fx.userId });
    await call("assignConversation", { params, json: { assigneeId: null }, expect: 200 });
    await call("assignConversation", { params, json: { assigneeId: stranger.userId }, expect: 422 });
    await call("assignConversation", { params: missing, json: { assigneeId: null }, expect: 404 });
    await call("closeConversation", { params, expect: 200 });
    await call("closeConversation", { params: missing, expect: 404 });
    await call("reopenConversation", { params, expect: 200 });
    await call("reopenConversation", { params: missing, expect: 404 });
    await call("markConversationRead", { params, expect: 204 });
    await call("markConversationRead", { params: missing, expect: 404 });
    // Every item kind on one page: the reply, the note, the assignment, closing, reopening, the contact's message.
    const full = await call("getConversation", { params, expect: 200 });
    expect((full.body.timeline as { data: { direction: string }[] }).data.map((item) => item.direction).sort()).toEqual(
      expect.arrayContaining(["inbound", "internal", "outbound"]),
    );
  });

  it("answers journey run, event and journey stats requests as documented", async () => {
    const second = await insertRun(fx.workspaceId, triggerCampaignId, { status: "completed", stepId: null, history: [["remind", "sent"]] });
    const page = await call("listJourneyRuns", { query: { campaignId: triggerCampaignId, limit: "1" }, expect: 200 });
    await call("listJourneyRuns", { query: { cursor: String(page.body.nextCursor), status: "completed", phone: second.phoneNumber }, expect: 200 });
    await call("listJourneyRuns", { query: { status: "sleeping" }, expect: 422 });
    await call("getJourneyRun", { params: { id: second.id }, expect: 200 });
    await call("getJourneyRun", { params: { id: "run_doesnotexist" }, expect: 404 });
    await call("getJourneyRun", { params: { id: journeyRunId }, key: stranger.key, expect: 404 });
    await call("endJourneyRun", { params: { id: journeyRunId }, key: stranger.key, expect: 404 });
    await call("endJourneyRun", { params: { id: journeyRunId }, expect: 200 });
    await call("endJourneyRun", { params: { id: journeyRunId }, expect: 409 });
    await call("listContactJourneyRuns", { params: { idOrPhone: journeyContactPhone }, query: { status: "ended" }, expect: 200 });
    await call("listContactJourneyRuns", { params: { idOrPhone: "+14155550000" }, expect: 404 });
    await call("listContactJourneyRuns", { params: { idOrPhone: journeyContactPhone }, query: { status: "sleeping" }, expect: 422 });
    await call("getJourneyStats", { params: { id: triggerCampaignId }, expect: 200 });
    await call("getJourneyStats", { params: { id: "cmp_doesnotexist" }, expect: 404 });
    const event = await call("createEvent", { json: { name: "order_placed", phone: journeyContactPhone, properties: { total: 59.9 } }, expect: 202 });
    expect(event.body).toMatchObject({ object: "event", contactId: fx.contactIds[0] });
    await call("createEvent", { json: { name: "order_placed" }, expect: 422 });

    const journeyCampaignId = await createTriggerCampaign(fx.workspaceId, fx.templateId, { triggerConfig: TRIGGER_CONFIG, messageConfig: PROMO_MESSAGE_CONFIG });
    await publishJourney(journeyCampaignId, reminderJourney(fx.templateId));
    const journey = { id: journeyCampaignId };
    const testRun = await call("testCampaignJourney", { params: journey, json: { phone: "+14155552671", request: { code: "T" }, timeScale: 3600 }, expect: 202 });
    expect(testRun.body).toMatchObject({ object: "journey_run", campaignId: journeyCampaignId, timeScale: 3600 });
    await call("testCampaignJourney", { params: journey, json: { phone: "not a phone" }, expect: 422 });
    await call("testCampaignJourney", { params: { id: "cmp_doesnotexist" }, json: { phone: "+14155552671" }, expect: 404 });
    const bulk = await call("createCampaign", { json: { kind: "bulk", name: "Not a journey", audience: { listIds: [], segmentIds: [] } }, expect: 201 });
    await call("testCampaignJourney", { params: { id: String(bulk.body.id) }, json: { phone: "+14155552671" }, expect: 409 });
    await call("archiveCampaign", { params: journey, expect: 200 });
    await call("testCampaignJourney", { params: journey, json: { phone: "+14155552671" }, expect: 409 });
  });

  it("holds every exchange to the document", () => {
    expect(recorder.mismatches, recorder.mismatches.join("\n")).toEqual([]);
  });

  it("exercises every documented (operation, status) pair and every documented problem code", () => {
    const allowed = (answer: string) => {
      const [operationId, status] = answer.split(" ");
      return answer in ALLOWED_UNEXERCISED || `${operationId} ${status}` in ALLOWED_UNEXERCISED || `* ${status}` in ALLOWED_UNEXERCISED;
    };
    const unexercised = [
      ...recorder.documentedPairs().filter((pair) => !recorder.exercised.has(pair)),
      ...recorder.documentedCodes().filter((code) => !recorder.exercisedCodes.has(code)),
    ].filter((answer) => !allowed(answer));
    expect(unexercised, `documented but never answered (operation status [problem code]):\n${unexercised.join("\n")}`).toEqual([]);
  });
});
