import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { GET as listRoute, POST as createRoute } from "@/app/api/webhook-endpoints/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as testRoute } from "@/app/api/webhook-endpoints/[id]/test/route";
import { GET as deliveriesRoute } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { POST as resendRoute } from "@/app/api/webhook-endpoints/[id]/deliveries/[deliveryId]/resend/route";
import { POST as rollRoute } from "@/app/api/webhook-endpoints/[id]/roll-secret/route";
import { getDb } from "@/db";
import { auditEvents, contacts, conversations, messages, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import type { InboundMessage } from "@/lib/channels/types";
import { assignConversation, setConversationStatus, type Viewer } from "@/lib/conversations/service";
import { recordInboundMessages } from "@/lib/inbound/record";
import { inboundMessageSchema } from "@/lib/openapi/schemas";
import { parseStrict } from "@/lib/http/request";
import { getSenderRow } from "@/lib/senders/service";
import { newId } from "@/lib/crypto/random";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie, type ApiAccount } from "@/lib/testing/api-factories";
import { createTestCampaign, createTestMessage } from "@/lib/testing/messaging-factories";
import { allowPrivateWebhookUrlsInTests } from "@/lib/testing/private-webhook-urls";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { dispatchSettled } from "@/lib/messaging";
import { runDispatch } from "@/lib/messaging/dispatcher";
import { listActiveNotices } from "@/lib/alerts/notices";
import { isPrivateAddress } from "@/lib/http/public-address";
import { deliverDueWebhooks, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./deliveries";
import { TEST_ENDPOINT_URL, type TestReceiptView, type WebhookDeliveryView, type WebhookEndpointView, type WebhookEndpointWithSecret } from "./schemas";
import { GET as receivedRoute } from "@/app/api/webhook-endpoints/[id]/received/route";
import { TEST_RECEIPTS_KEPT } from "./test-endpoint";

let account: ApiAccount;
let cookie: string;

const receiver = await startWebhookReceiver();
allowPrivateWebhookUrlsInTests();
afterAll(async () => {
  await dispatchSettled();
  await receiver.close();
});
beforeEach(async () => {
  receiver.reset();
  account = await createApiAccount();
  cookie = await sessionCookie(account);
});

const asUser = (extra: { params?: Record<string, string>; body?: unknown } = {}) => ({ cookie, headers: SAME_ORIGIN, ...extra });

async function createEndpoint(events: string[] = ["message.sent", "message.delivered", "message.failed"], url = receiver.url) {
  const created = await callRoute<WebhookEndpointWithSecret>(createRoute, "POST", "/api/webhook-endpoints", asUser({ body: { url, events, description: "Order system" } }));
  expect(created.status).toBe(201);
  return created.body;
}

/** One delivery pass for this test's workspace, to the local receiver. */
async function pass(options: { allowPrivate?: boolean; timeoutMs?: number } = {}) {
  return deliverDueWebhooks(await getDb(), { workspaceIds: [account.workspaceId], allowPrivate: options.allowPrivate ?? true, timeoutMs: options.timeoutMs });
}

async function deliveriesOf(endpointId: string) {
  const db = await getDb();
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.createdAt);
}

async function setStatus(messageId: string, status: "sent" | "delivered" | "read" | "failed", extra: Record<string, unknown> = {}) {
  const db = await getDb();
  await db.update(messages).set({ status, ...extra, updatedAt: new Date() }).where(eq(messages.id, messageId));
}

/** Makes every pending delivery of the endpoint due now (instead of waiting out its backoff). */
async function makeDue(endpointId: string) {
  const db = await getDb();
  await db.update(webhookDeliveries).set({ nextAttemptAt: sql`now()` }).where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
}

describe("the built-in test endpoint", () => {
  it("needs no private-URL access, records a message event with its signed headers instead of sending it, and checks the signature", async () => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    const created = await callRoute<WebhookEndpointWithSecret>(createRoute, "POST", "/api/webhook-endpoints", asUser({ body: { url: TEST_ENDPOINT_URL, events: ["message.sent"] } }));
    expect(created.status).toBe(201);
    const { endpoint, secret } = created.body;
    const messageId = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(messageId, "sent");
    // No private addresses allowed, and the delivery still succeeds: nothing left the process.
    expect(await pass({ allowPrivate: false })).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", responseStatus: 200 });

    const received = await callRoute<{ data: TestReceiptView[] }>(receivedRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }));
    expect(received.status).toBe(200);
    const [receipt] = received.body.data;
    expect(receipt).toMatchObject({ eventType: "message.sent", signatureValid: true });
    expect(receipt!.headers).toMatchObject({ "content-type": "application/json", "webhook-id": receipt!.eventId });
    // An independent Standard Webhooks library agrees.
    const event = new Webhook(secret).verify(receipt!.body, receipt!.headers) as { type: string; data: { id: string } };
    expect(event).toMatchObject({ type: "message.sent", data: { id: messageId } });

    // After a roll, old receipts no longer match the current secret, and say so.
    await callRoute(rollRoute, "POST", "/x", asUser({ params: { id: endpoint.id } }));
    const rolled = await callRoute<{ data: TestReceiptView[] }>(receivedRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }));
    expect(rolled.body.data[0]!.signatureValid).toBe(false);

    const other = await createApiAccount();
    const foreign = await callRoute(receivedRoute, "GET", "/x", { cookie: await sessionCookie(other), headers: SAME_ORIGIN, params: { id: endpoint.id } });
    expect(foreign.status).toBe(404);
  });

  it(`keeps the newest ${TEST_RECEIPTS_KEPT} receipts`, async () => {
    const { endpoint } = await createEndpoint(["message.sent"], TEST_ENDPOINT_URL);
    for (let i = 0; i < TEST_RECEIPTS_KEPT + 3; i++) await callRoute(testRoute, "POST", "/x", asUser({ params: { id: endpoint.id } }));
    await dispatchSettled();
    await pass();
    const received = await callRoute<{ data: TestReceiptView[] }>(receivedRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }));
    expect(received.body.data).toHaveLength(TEST_RECEIPTS_KEPT);
    expect(received.body.data.every((r) => r.eventType === "webhook.test" && r.signatureValid)).toBe(true);
  });
});

describe("endpoints", () => {
  it("registers an endpoint, shows its secret once and never again", async () => {
    const { endpoint, secret } = await createEndpoint();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toMatchObject({ url: receiver.url, description: "Order system", events: ["message.sent", "message.delivered", "message.failed"], enabled: true, pending: 0 });
    await setStatus(await createTestMessage({ workspaceId: account.workspaceId }), "sent");
    const pendingOne = await callRoute<WebhookEndpointView>(getRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }));
    expect(pendingOne.body.pending).toBe(1);
    const listed = await callRoute<{ data: WebhookEndpointView[] }>(listRoute, "GET", "/api/webhook-endpoints", asUser());
    expect(listed.body.data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const one = await callRoute(getRoute, "GET", `/api/webhook-endpoints/${endpoint.id}`, asUser({ params: { id: endpoint.id } }));
    expect(JSON.stringify(one.body)).not.toContain(secret.slice(6));
    const [stored] = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(stored!.secretEncrypted).not.toContain(secret.slice(6));
    const [audit] = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.targetId, endpoint.id), eq(auditEvents.action, "webhook_endpoint.created")));
    expect(audit?.actorUserId).toBe(account.userId);
  });

  it("is managed from the web app only: an API key gets 401, another workspace's endpoint is 404", async () => {
    const { endpoint } = await createEndpoint();
    expect((await callRoute(listRoute, "GET", "/api/webhook-endpoints", { key: account.key })).status).toBe(401);
    const other = await createApiAccount();
    const otherCookie = await sessionCookie(other);
    for (const [handler, method] of [[getRoute, "GET"], [patchRoute, "PATCH"], [deleteRoute, "DELETE"], [testRoute, "POST"], [rollRoute, "POST"], [deliveriesRoute, "GET"]] as const) {
      const result = await callRoute(handler, method, `/api/webhook-endpoints/${endpoint.id}`, {
        cookie: otherCookie,
        headers: SAME_ORIGIN,
        params: { id: endpoint.id },
        ...(method === "PATCH" ? { body: { enabled: false } } : {}),
      });
      expect(result.status, `${method} ${handler.name}`).toBe(404);
    }
  });

  it("refuses bad input with 422 problem+json and stores nothing", async () => {
    const cases: [unknown, string][] = [
      [{ url: "not a url", events: ["message.sent"] }, "url"],
      [{ url: receiver.url, events: [] }, "events"],
      [{ url: receiver.url, events: ["message.bounced"] }, "events[0]"],
      [{ url: receiver.url, events: ["message.sent"], secret: "mine" }, ""],
    ];
    for (const [body, path] of cases) {
      const result = await callRoute<{ errors: { path: string }[] }>(createRoute, "POST", "/api/webhook-endpoints", asUser({ body }));
      expect(result.status, JSON.stringify(body)).toBe(422);
      expect(result.headers.get("content-type")).toContain("application/problem+json");
      if (path) expect(result.body.errors.map((e) => e.path)).toContain(path);
    }
    expect(await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, account.workspaceId))).toHaveLength(0);
  });

  it("refuses URLs that reach private or loopback addresses unless the setting allows them", async () => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    for (const url of [receiver.url.replace("http:", "https:"), "https://localhost/hook", "https://10.1.2.3/hook", "https://[::1]/hook", "https://169.254.169.254/latest", "https://[::ffff:127.0.0.1]/x", "https://[::127.0.0.1]/", "https://[2002:7f00:1::1]/"]) {
      const result = await callRoute<{ errors: { path: string; code: string; message: string }[] }>(createRoute, "POST", "/api/webhook-endpoints", asUser({ body: { url, events: ["message.sent"] } }));
      expect(result.status, url).toBe(422);
      expect(result.body.errors[0]).toMatchObject({ path: "url", code: "unsafe_url" });
      expect(result.body.errors[0]!.message).toMatch(/private or loopback/);
      // The refusal names the setting a developer can turn on, in the field's message and the problem's detail.
      expect(result.body.errors[0]!.message).toContain("WEBHOOKS_ALLOW_PRIVATE_URLS=true");
      expect((result.body as unknown as { detail: string }).detail).toContain("WEBHOOKS_ALLOW_PRIVATE_URLS=true");
    }
    const plain = await callRoute<{ detail: string; errors: { message: string }[] }>(createRoute, "POST", "/api/webhook-endpoints", asUser({ body: { url: "http://example.com/hook", events: ["message.sent"] } }));
    expect(plain.status).toBe(422);
    expect(plain.body.errors[0]!.message).toMatch(/https/);
    expect(plain.body.detail).toContain("WEBHOOKS_ALLOW_PRIVATE_URLS=true");
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
    expect((await callRoute(createRoute, "POST", "/api/webhook-endpoints", asUser({ body: { url: receiver.url, events: ["message.sent"] } }))).status).toBe(201);
  });

  it("judges addresses: private, loopback, link-local and mapped ones are refused, public ones pass", () => {
    for (const address of ["127.0.0.1", "10.0.0.8", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "::127.0.0.1", "::a9fe:a9fe", "2002:7f00:1::1", "2002:a9fe:a9fe::", "not-an-ip"]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it("switches an endpoint off and on, rolls its secret and deletes it with its log", async () => {
    const { endpoint, secret } = await createEndpoint();
    const off = await callRoute<WebhookEndpointView>(patchRoute, "PATCH", `/api/webhook-endpoints/${endpoint.id}`, asUser({ params: { id: endpoint.id }, body: { enabled: false } }));
    expect(off.body).toMatchObject({ enabled: false, disabledReason: "Switched off by a user." });
    const on = await callRoute<WebhookEndpointView>(patchRoute, "PATCH", `/api/webhook-endpoints/${endpoint.id}`, asUser({ params: { id: endpoint.id }, body: { enabled: true, events: ["message.read", "message.sent"] } }));
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null, events: ["message.sent", "message.read"] });
    const rolled = await callRoute<WebhookEndpointWithSecret>(rollRoute, "POST", `/api/webhook-endpoints/${endpoint.id}/roll-secret`, asUser({ params: { id: endpoint.id } }));
    expect(rolled.body.secret).toMatch(/^whsec_/);
    expect(rolled.body.secret).not.toBe(secret);
    await callRoute(testRoute, "POST", "/x", asUser({ params: { id: endpoint.id } }));
    expect((await callRoute(deleteRoute, "DELETE", "/x", asUser({ params: { id: endpoint.id } }))).status).toBe(204);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(0);
    expect((await callRoute(getRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }))).status).toBe(404);
  });
});

describe("events", () => {
  it("are written with the change only while an enabled endpoint subscribes to their type", async () => {
    const db = await getDb();
    const unwatched = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(unwatched, "sent");
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, account.workspaceId))).toHaveLength(0);

    const { endpoint } = await createEndpoint(["message.delivered"]);
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(id, "sent");
    await setStatus(id, "delivered", { deliveredAt: new Date() });
    await setStatus(id, "delivered"); // not a change: no second event
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, account.workspaceId));
    expect(events.map((e) => e.type)).toEqual(["message.delivered"]);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.eventId)).toEqual([events[0]!.id]);

    await db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpoint.id));
    const later = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(later, "delivered");
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, account.workspaceId))).toHaveLength(1);
  });

  it("follow a message through the real dispatcher (sent) and its later status changes (delivered, read)", async () => {
    const db = await getDb();
    await createEndpoint(["message.sent", "message.delivered", "message.read"]);
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    const summary = await runDispatch({ db }, { workspaceIds: [account.workspaceId], deadlineMs: 10_000 });
    expect(summary.sent).toBe(1);
    const [sent] = await db.select().from(messages).where(eq(messages.id, id));
    await db.execute(sql`update messages set status = 'delivered', delivered_at = now() where id = ${id} and status = 'sent'`);
    await db.execute(sql`update messages set status = 'read', read_at = now() where id = ${id} and status = 'delivered'`);
    await pass();
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { id: string; wamid: string; status: string } });
    expect(bodies.map((b) => b.type).sort()).toEqual(["message.delivered", "message.read", "message.sent"]);
    expect(bodies.every((b) => b.data.id === id && b.data.wamid === sent!.providerMessageId)).toBe(true);
    // Each event carries the message as it was when that change committed.
    expect(Object.fromEntries(bodies.map((b) => [b.type, b.data.status]))).toEqual({ "message.sent": "sent", "message.delivered": "delivered", "message.read": "read" });
  });

  it("cover skipped and failed messages, completed campaigns and opted-out contacts", async () => {
    const db = await getDb();
    await createEndpoint(["message.skipped", "message.failed", "campaign.completed", "contact.opted_out"]);
    const campaignId = await createTestCampaign(account.workspaceId);
    await createTestMessage({ workspaceId: account.workspaceId, campaignId, status: "skipped" });
    const failing = await createTestMessage({ workspaceId: account.workspaceId, campaignId });
    await setStatus(failing, "failed", { errorCode: "131026", errorReason: "Message undeliverable", failedAt: new Date() });
    await db.execute(sql`update campaigns set kind = 'bulk', status = 'completed', completed_at = now() where id = ${campaignId}`);
    const contactId = newId("ctc");
    await db.insert(contacts).values({ id: contactId, workspaceId: account.workspaceId, phoneNumber: "+14155550199", name: "Ana" });
    await db.update(contacts).set({ optedOutAt: new Date(), optOutMethod: "keyword", optOutDetail: "STOP", consentStatus: "unsubscribed" }).where(eq(contacts.id, contactId));
    await db.update(contacts).set({ optOutDetail: "STOP again" }).where(eq(contacts.id, contactId)); // already out: no event
    await db.insert(contacts).values({ id: newId("ctc"), workspaceId: account.workspaceId, phoneNumber: "+14155550198", optedOutAt: new Date(), optOutMethod: "import", consentStatus: "unsubscribed" });

    await pass();
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    const byType = (type: string) => bodies.filter((b) => b.type === type).map((b) => b.data);
    expect(byType("message.skipped")).toHaveLength(1);
    expect(byType("message.failed")[0]).toMatchObject({ object: "message", id: failing, status: "failed", error: { code: "131026", reason: "Message undeliverable" } });
    expect(byType("campaign.completed")[0]).toMatchObject({ object: "campaign", id: campaignId, status: "completed", counts: { skipped: 1, failed: 1 } });
    expect(byType("contact.opted_out").map((c) => c.phone).sort()).toEqual(["+14155550198", "+14155550199"]);
    expect(byType("contact.opted_out").find((c) => c.phone === "+14155550199")).toMatchObject({ optOutMethod: "keyword", optOutDetail: "STOP" });
  });
});

describe("conversation events", () => {
  const inbound = (from: string, providerMessageId: string, text: string): InboundMessage => ({
    providerMessageId,
    from,
    profileName: "Ana",
    at: new Date(),
    kind: "text",
    text,
    payload: null,
    media: null,
    location: null,
    reaction: null,
    contextProviderMessageId: null,
  });
  const bodiesOf = (type: string) =>
    receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }).filter((body) => body.type === type).map((body) => body.data);

  it("message.received: one event per stored inbound message, the public inbound message with the campaign it answers; a redelivery sends none", async () => {
    const db = await getDb();
    const { endpoint } = await createEndpoint(["message.received"]);
    const sender = await getSenderRow(db, account.workspaceId);
    const phone = "+14155550177";
    const contactId = newId("ctc");
    await db.insert(contacts).values({ id: contactId, workspaceId: account.workspaceId, phoneNumber: phone, name: "Ana" });
    const campaignId = await createTestCampaign(account.workspaceId);
    await createTestMessage({ workspaceId: account.workspaceId, campaignId, phoneNumber: phone, contactId, senderId: sender.id, status: "sent", sentAt: new Date(Date.now() - 60_000) });
    const scope = { workspaceId: account.workspaceId, senderId: sender.id };
    const first = await recordInboundMessages(db, scope, [inbound(phone, "wamid.EVT1", "Is it in blue?"), inbound(phone, "wamid.EVT2", "Size M please")]);
    expect(first.stored).toBe(2);
    const again = await recordInboundMessages(db, scope, [inbound(phone, "wamid.EVT1", "Is it in blue?")]);
    expect(again.duplicates).toBe(1);

    expect(await pass()).toMatchObject({ attempted: 2, succeeded: 2 });
    const received = bodiesOf("message.received");
    expect(received.map((data) => data.wamid).sort()).toEqual(["wamid.EVT1", "wamid.EVT2"]);
    for (const data of received) {
      expect(parseStrict(inboundMessageSchema, data)).toMatchObject({ object: "message", direction: "inbound", kind: "text", phone, contactId, senderId: sender.id, campaignId });
    }
    expect(received.find((data) => data.wamid === "wamid.EVT1")).toMatchObject({ id: first.messages[0]!.id, text: "Is it in blue?" });
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded"]);
  });

  it("conversation.assigned when assigned to a member (not when unassigned), conversation.closed when closed (not reopened, not twice)", async () => {
    const db = await getDb();
    await createEndpoint(["conversation.assigned", "conversation.closed"]);
    const sender = await getSenderRow(db, account.workspaceId);
    const recorded = await recordInboundMessages(db, { workspaceId: account.workspaceId, senderId: sender.id }, [inbound("+14155550178", "wamid.EVT3", "Hello?")]);
    const [conversation] = await db.select().from(conversations).where(eq(conversations.contactId, recorded.messages[0]!.contactId!));
    const viewer: Viewer = { workspaceId: account.workspaceId, actor: { type: "user", id: account.userId, email: "user@example.test", name: "Test User" }, role: "owner" };
    await assignConversation(db, viewer, conversation!.id, account.userId, SYSTEM_ACTOR);
    await assignConversation(db, viewer, conversation!.id, account.userId, SYSTEM_ACTOR); // not a change
    await assignConversation(db, viewer, conversation!.id, null, SYSTEM_ACTOR);
    await setConversationStatus(db, viewer, conversation!.id, "closed", SYSTEM_ACTOR);
    await setConversationStatus(db, viewer, conversation!.id, "closed", SYSTEM_ACTOR);
    await setConversationStatus(db, viewer, conversation!.id, "open", SYSTEM_ACTOR);

    await pass();
    const common = { object: "conversation", id: conversation!.id, contactId: conversation!.contactId, senderId: sender.id, campaignId: null, unread: 1 };
    expect(bodiesOf("conversation.assigned")).toEqual([
      {
        ...common,
        status: "open",
        assigneeId: account.userId,
        lastInboundAt: conversation!.lastInboundAt!.toISOString(),
        lastActivityAt: conversation!.lastActivityAt.toISOString(),
        closedAt: null,
        createdAt: conversation!.createdAt.toISOString(),
      },
    ]);
    const closed = bodiesOf("conversation.closed");
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ ...common, status: "closed", assigneeId: null, closedAt: expect.any(String) });
    expect(receiver.received).toHaveLength(2);
  });
});

describe("delivery", () => {
  it("signs each delivery so that an independent Standard Webhooks implementation verifies it", async () => {
    const { endpoint, secret } = await createEndpoint();
    const id = await createTestMessage({ workspaceId: account.workspaceId, phoneNumber: "+14155550111" });
    await setStatus(id, "sent", { providerMessageId: "wamid.TEST1", sentAt: new Date() });
    expect(await pass()).toEqual({ attempted: 1, succeeded: 1, failed: 0 });
    const [request] = receiver.received;
    const headers = { "webhook-id": String(request!.headers["webhook-id"]), "webhook-timestamp": String(request!.headers["webhook-timestamp"]), "webhook-signature": String(request!.headers["webhook-signature"]) };
    const verified = new Webhook(secret).verify(request!.body, headers) as { id: string; type: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({ type: "message.sent", data: { object: "message", id, status: "sent", phone: "+14155550111", wamid: "wamid.TEST1" } });
    expect(verified.id).toBe(headers["webhook-id"]);
    // Another secret, or a changed body, does not verify.
    expect(() => new Webhook("whsec_" + Buffer.alloc(24, 1).toString("base64")).verify(request!.body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(request!.body.replace("+14155550111", "+14155550112"), headers)).toThrow();
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, responseStatus: 200, error: null });
    expect(delivery!.responseMs).toBeGreaterThanOrEqual(0);
  });

  it("retries with backoff against a receiver that fails, then succeeds; every attempt is the same event", async () => {
    const { endpoint, secret } = await createEndpoint();
    receiver.answer([500, 503], 200);
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(id, "sent");

    const before = Date.now();
    expect(await pass()).toMatchObject({ attempted: 1, failed: 1 });
    let [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500 });
    expect(delivery!.error).toMatch(/answered 500/);
    expect(delivery!.nextAttemptAt.getTime() - before).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]! - 1_000);
    expect(await pass()).toMatchObject({ attempted: 0 }); // not due yet

    await makeDue(endpoint.id);
    await pass();
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 2, responseStatus: 503 });
    expect(delivery!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(RETRY_DELAYS_MS[1]! - 2_000);

    await makeDue(endpoint.id);
    await pass();
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 3, responseStatus: 200, error: null });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
  });

  it("gives up after the last attempt (about 24 hours) and switches the failing endpoint off with a notice", async () => {
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000).toBeGreaterThan(23);
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000).toBeLessThanOrEqual(24);
    const { endpoint } = await createEndpoint();
    receiver.answer([], 500);
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(id, "sent");
    const db = await getDb();
    await db.update(webhookDeliveries).set({ attempts: MAX_ATTEMPTS - 1 }).where(eq(webhookDeliveries.endpointId, endpoint.id));
    await pass();
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    const after = await callRoute<WebhookEndpointView>(getRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }));
    expect(after.body).toMatchObject({ enabled: false, failedLastWeek: 1 });
    expect(after.body.disabledReason).toMatch(/failed for 24 hours/);
    const audits = await db.select().from(auditEvents).where(and(eq(auditEvents.targetId, endpoint.id), eq(auditEvents.action, "webhook_endpoint.disabled")));
    expect(audits).toHaveLength(1);
    // The owners' alert: open until the endpoint is switched on again.
    const [alert] = await listActiveNotices(db, account.workspaceId);
    expect(alert).toMatchObject({ kind: "webhook_endpoint_disabled", href: `/settings/webhooks/${endpoint.id}`, title: expect.stringContaining("127.0.0.1") });
    expect(alert!.emailedAt).not.toBeNull();
    // Switched off: new events are not even written, and nothing is claimed.
    await setStatus(await createTestMessage({ workspaceId: account.workspaceId }), "sent");
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    await callRoute(patchRoute, "PATCH", "/x", asUser({ params: { id: endpoint.id }, body: { enabled: true } }));
    expect(await listActiveNotices(db, account.workspaceId)).toHaveLength(0);
  });

  it("keeps an endpoint on when it succeeded after the failing delivery began", async () => {
    const { endpoint } = await createEndpoint();
    receiver.answer([500], 200);
    const first = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(first, "sent");
    await pass();
    const second = await createTestMessage({ workspaceId: account.workspaceId });
    await setStatus(second, "sent");
    await pass(); // the second event succeeds
    receiver.answer([], 500);
    const db = await getDb();
    await db.update(webhookDeliveries).set({ attempts: MAX_ATTEMPTS - 1 }).where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, "pending")));
    await makeDue(endpoint.id);
    await pass();
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status).sort()).toEqual(["failed", "succeeded"]);
    expect((await callRoute<WebhookEndpointView>(getRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }))).body.enabled).toBe(true);
  });

  it("switches an endpoint off at once when it answers 410 Gone", async () => {
    const { endpoint } = await createEndpoint();
    receiver.answer([410]);
    await setStatus(await createTestMessage({ workspaceId: account.workspaceId }), "sent");
    await pass();
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "failed", attempts: 1, responseStatus: 410 });
    expect((await callRoute<WebhookEndpointView>(getRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }))).body.disabledReason).toMatch(/410/);
  });

  it("records a timeout and a refused address as failed attempts to retry", async () => {
    const { endpoint } = await createEndpoint();
    receiver.delayMs = 1_000;
    await setStatus(await createTestMessage({ workspaceId: account.workspaceId }), "sent");
    await pass({ timeoutMs: 200 });
    let [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, responseStatus: null });
    expect(delivery!.error).toMatch(/No answer within/);

    // The host was allowed when saved; at delivery time private addresses are refused again.
    receiver.delayMs = 0;
    receiver.received.length = 0;
    await makeDue(endpoint.id);
    await pass({ allowPrivate: false });
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 2 });
    expect(delivery!.error).toMatch(/private or loopback/);
    expect(receiver.received).toHaveLength(0);
  });

  it("sends a test event and resends a delivery as the same event, shown in the delivery log", async () => {
    const { endpoint, secret } = await createEndpoint();
    const queued = await callRoute<WebhookDeliveryView>(testRoute, "POST", "/x", asUser({ params: { id: endpoint.id } }));
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: 0 });
    await dispatchSettled(); // the route delivers right after its response
    await pass();
    expect(receiver.received).toHaveLength(1);
    const test = new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers as Record<string, string>) as { type: string; data: { endpointId: string } };
    expect(test).toMatchObject({ type: "webhook.test", data: { object: "webhook_test", endpointId: endpoint.id } });

    const resent = await callRoute<WebhookDeliveryView>(resendRoute, "POST", "/x", asUser({ params: { id: endpoint.id, deliveryId: queued.body.id } }));
    expect(resent.status).toBe(202);
    expect(resent.body.eventId).toBe(queued.body.eventId);
    await dispatchSettled();
    await pass();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);

    const log = await callRoute<{ data: WebhookDeliveryView[]; nextCursor: string | null }>(deliveriesRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }));
    expect(log.body.data).toHaveLength(2);
    expect(log.body.data.every((d) => d.status === "succeeded" && d.responseStatus === 200 && d.body === receiver.received[0]!.body)).toBe(true);
    expect(log.body.data[0]!.id).toBe(resent.body.id);

    await callRoute(patchRoute, "PATCH", "/x", asUser({ params: { id: endpoint.id }, body: { enabled: false } }));
    const refused = await callRoute<{ type: string }>(testRoute, "POST", "/x", asUser({ params: { id: endpoint.id } }));
    expect(refused.status).toBe(409);
    expect(refused.body.type).toMatch(/#error-webhook_endpoint_disabled$/);
    expect((await callRoute(resendRoute, "POST", "/x", asUser({ params: { id: endpoint.id, deliveryId: "whd_nope" } }))).status).toBe(409);
  });

  it("pages the delivery log with a cursor", async () => {
    const { endpoint } = await createEndpoint(["message.sent"]);
    for (let i = 0; i < 30; i++) await setStatus(await createTestMessage({ workspaceId: account.workspaceId }), "sent");
    const first = await callRoute<{ data: WebhookDeliveryView[]; nextCursor: string | null }>(deliveriesRoute, "GET", "/x", asUser({ params: { id: endpoint.id } }));
    expect(first.body.data).toHaveLength(25);
    const second = await callRoute<{ data: WebhookDeliveryView[]; nextCursor: string | null }>(deliveriesRoute, "GET", `/x?cursor=${first.body.nextCursor}`, asUser({ params: { id: endpoint.id } }));
    expect(second.body.data).toHaveLength(5);
    expect(second.body.nextCursor).toBeNull();
    expect(new Set([...first.body.data, ...second.body.data].map((d) => d.id)).size).toBe(30);
    expect((await callRoute(deliveriesRoute, "GET", "/x?cursor=garbage", asUser({ params: { id: endpoint.id } }))).status).toBe(400);
  });
});
