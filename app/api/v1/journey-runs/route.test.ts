import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, journeyEvents, journeyRuns, messages } from "@/db/schema";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { insertContact, insertRun, publishJourney, reminderJourney } from "@/lib/testing/journey-seeds";
import { createTriggerCampaign } from "@/lib/testing/trigger-factories";
import { newId } from "@/lib/crypto/random";
import { templates } from "@/db/schema";
import * as contactRuns from "../contacts/[idOrPhone]/journey-runs/route";
import * as events from "../events/route";
import * as end from "./[id]/end/route";
import * as one from "./[id]/route";
import * as collection from "./route";

type Problem = { type: string; status: number; errors?: { path: string; code: string }[] };

async function journeyCampaign(workspaceId: string) {
  const db = await getDb();
  const templateId = newId("tpl");
  await db.insert(templates).values({ id: templateId, workspaceId, name: "cart", language: "en_US", category: "MARKETING", status: "APPROVED", parameterFormat: "POSITIONAL", components: [] });
  const campaignId = await createTriggerCampaign(workspaceId, templateId);
  await publishJourney(campaignId, reminderJourney(templateId));
  return campaignId;
}

describe("/api/v1/journey-runs", () => {
  it("lists a workspace's runs newest first with filters and a cursor; one run shows its history with the steps' names", async () => {
    const account = await createApiAccount();
    const campaignId = await journeyCampaign(account.workspaceId);
    const t0 = Date.now() - 60_000;
    const first = await insertRun(account.workspaceId, campaignId, { status: "completed", stepId: null, enteredAt: new Date(t0), history: [["remind", "sent"], ["pause", "waited"], ["again", "sent"]] });
    const second = await insertRun(account.workspaceId, campaignId, { status: "waiting", stepId: "pause", enteredAt: new Date(t0 + 1000), history: [["remind", "sent"]] });
    const third = await insertRun(account.workspaceId, campaignId, { enteredAt: new Date(t0 + 2000) });

    const page1 = await callRoute<{ data: { id: string }[]; nextCursor: string | null }>(collection.GET, "GET", `/api/v1/journey-runs?campaignId=${campaignId}&limit=2`, { key: account.key });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((r) => r.id)).toEqual([third.id, second.id]);
    const page2 = await callRoute<{ data: { id: string }[]; nextCursor: string | null }>(collection.GET, "GET", `/api/v1/journey-runs?campaignId=${campaignId}&limit=2&cursor=${page1.body.nextCursor}`, { key: account.key });
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: first.id, object: "journey_run", status: "completed", campaignId })], nextCursor: null });

    const waiting = await callRoute<{ data: { id: string }[] }>(collection.GET, "GET", `/api/v1/journey-runs?status=waiting&phone=${encodeURIComponent(second.phoneNumber)}`, { key: account.key });
    expect(waiting.body.data.map((r) => r.id)).toEqual([second.id]);

    const detail = await callRoute(one.GET, "GET", `/api/v1/journey-runs/${first.id}`, { key: account.key, params: { id: first.id } });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: first.id,
      status: "completed",
      version: 1,
      history: [
        { stepId: "remind", stepName: "Reminder", stepType: "send", outcome: "sent" },
        { stepId: "pause", stepName: "An hour", stepType: "wait", outcome: "waited" },
        { stepId: "again", stepName: "Second reminder", stepType: "send", outcome: "sent" },
      ],
    });

    const badCursor = await callRoute<Problem>(collection.GET, "GET", "/api/v1/journey-runs?cursor=nope", { key: account.key });
    expect(badCursor.status).toBe(422);
  });

  it("ends a going run (its queued message skipped, audited); a run over already is 409; another workspace's run is 404", async () => {
    const account = await createApiAccount();
    const campaignId = await journeyCampaign(account.workspaceId);
    const run = await insertRun(account.workspaceId, campaignId, { status: "waiting", stepId: "pause", history: [["remind", "sent"]] });
    const db = await getDb();
    const messageId = newId("msg");
    await db.insert(messages).values({ id: messageId, workspaceId: account.workspaceId, campaignId, phoneNumber: run.phoneNumber, templateName: "cart", templateLanguage: "en_US", renderedText: "Hi", status: "queued", journeyRunId: run.id, journeyStepId: "remind" });

    const cookie = await sessionCookie(account);
    const ended = await callRoute(end.POST, "POST", `/api/v1/journey-runs/${run.id}/end`, { cookie, headers: SAME_ORIGIN, params: { id: run.id } });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ id: run.id, status: "ended", stepId: "pause", history: [{ outcome: "sent" }, { stepId: "pause", outcome: "ended" }] });
    const [message] = await db.select().from(messages).where(eq(messages.id, messageId));
    expect(message).toMatchObject({ status: "skipped", errorCode: "journey_ended" });
    const audit = await db.select().from(auditEvents).where(and(eq(auditEvents.workspaceId, account.workspaceId), eq(auditEvents.action, "journey_run.ended")));
    expect(audit).toMatchObject([{ targetId: run.id, actorUserId: account.userId }]);

    const again = await callRoute<Problem>(end.POST, "POST", `/api/v1/journey-runs/${run.id}/end`, { key: account.key, params: { id: run.id } });
    expect(again.status).toBe(409);
    expect(again.body.type).toContain("run_not_active");

    const other = await createApiAccount();
    for (const [handler, method, url] of [
      [one.GET, "GET", `/api/v1/journey-runs/${run.id}`],
      [end.POST, "POST", `/api/v1/journey-runs/${run.id}/end`],
    ] as const) {
      expect((await callRoute(handler, method, url, { key: other.key, params: { id: run.id } })).status).toBe(404);
    }
    expect((await callRoute(one.GET, "GET", "/api/v1/journey-runs/run_missing", { key: account.key, params: { id: "run_missing" } })).status).toBe(404);
    const otherList = await callRoute<{ data: unknown[] }>(collection.GET, "GET", `/api/v1/journey-runs?campaignId=${campaignId}`, { key: other.key });
    expect(otherList.body.data).toEqual([]);
    const [stored] = await db.select().from(journeyRuns).where(eq(journeyRuns.id, run.id));
    expect(stored!.status).toBe("ended");
  });

  it("a contact's runs, by id or phone; another workspace's contact is 404", async () => {
    const account = await createApiAccount();
    const campaignId = await journeyCampaign(account.workspaceId);
    const contact = await insertContact(account.workspaceId);
    const run = await insertRun(account.workspaceId, campaignId, { contactId: contact.id, phone: contact.phoneNumber });
    await insertRun(account.workspaceId, campaignId);
    for (const idOrPhone of [contact.id, encodeURIComponent(contact.phoneNumber)]) {
      const list = await callRoute<{ data: { id: string }[] }>(contactRuns.GET, "GET", `/api/v1/contacts/${idOrPhone}/journey-runs`, { key: account.key, params: { idOrPhone } });
      expect(list.status).toBe(200);
      expect(list.body.data.map((r) => r.id)).toEqual([run.id]);
    }
    const other = await createApiAccount();
    expect((await callRoute(contactRuns.GET, "GET", `/api/v1/contacts/${contact.id}/journey-runs`, { key: other.key, params: { idOrPhone: contact.id } })).status).toBe(404);
  });
});

describe("POST /api/v1/events", () => {
  it("accepts an event for a contact by phone or id (202), and records one for an unknown contact with no run", async () => {
    const account = await createApiAccount();
    const contact = await insertContact(account.workspaceId);
    const byPhone = await callRoute(events.POST, "POST", "/api/v1/events", { key: account.key, body: { name: "order_placed", phone: contact.phoneNumber, properties: { total: 42 } } });
    expect(byPhone.status).toBe(202);
    expect(byPhone.body).toMatchObject({ object: "event", name: "order_placed", contactId: contact.id, runsStarted: 0, runsEnded: 0 });
    const byId = await callRoute(events.POST, "POST", "/api/v1/events", { key: account.key, body: { name: "order_placed", contactId: contact.id } });
    expect(byId.body).toMatchObject({ contactId: contact.id });

    const unknown = await callRoute<{ id: string; contactId: string | null; runsStarted: number }>(events.POST, "POST", "/api/v1/events", { key: account.key, body: { name: "order_placed", phone: "+14155559999" } });
    expect(unknown.status).toBe(202);
    expect(unknown.body).toMatchObject({ contactId: null, runsStarted: 0 });
    const [row] = await (await getDb()).select().from(journeyEvents).where(eq(journeyEvents.id, unknown.body.id));
    expect(row).toMatchObject({ workspaceId: account.workspaceId, name: "order_placed", contactId: null, phoneNumber: "+14155559999" });
  });

  it("a bad body is 422 with the field's path", async () => {
    const account = await createApiAccount();
    const cases: [unknown, string][] = [
      [{ name: "order_placed" }, "phone"],
      [{ name: "order_placed", phone: "+14155550100", contactId: "ctc_abc" }, "phone"],
      [{ name: "bad name!", phone: "+14155550100" }, "name"],
      [{ name: "order_placed", phone: "555" }, "phone"],
      [{ name: "order_placed", phone: "+14155550100", properties: { blob: "x".repeat(9000) } }, "properties"],
      [{ name: "order_placed", phone: "+14155550100", properties: [1] }, "properties"],
      [{ name: "order_placed", phone: "+14155550100", extra: 1 }, ""],
    ];
    for (const [body, path] of cases) {
      const response = await callRoute<Problem>(events.POST, "POST", "/api/v1/events", { key: account.key, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      if (path) expect(response.body.errors?.map((e) => e.path)).toContain(path);
    }
  });
});
