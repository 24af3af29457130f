import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as testSend } from "@/app/api/v1/campaigns/[id]/test-send/route";
import { getDb } from "@/db";
import { campaigns, contacts, messages, templates } from "@/db/schema";
import { countFunnel } from "@/lib/campaigns/funnel";
import { newId } from "@/lib/crypto/random";
import { dispatchSettled } from "@/lib/messaging";
import { runDispatch } from "@/lib/messaging/dispatcher";
import type { PublicMessage } from "@/lib/messaging/public-message";
import { splitPhoneList } from "@/lib/contacts/phone";
import { callRoute } from "@/lib/testing/api-factories";
import { SANDBOX_EXTERNAL_PREFIX } from "@/lib/templates/service";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";

type Problem = { status: number; errors?: { path: string; code: string; message: string }[] };

/** The order template as the sandbox sender's own (the fixture's template belongs to no provider). */
async function sandboxFixture(options: Parameters<typeof createTriggerFixture>[0]) {
  const fixture = await createTriggerFixture(options);
  await (await getDb()).update(templates).set({ externalId: `${SANDBOX_EXTERNAL_PREFIX}order_shipped` }).where(eq(templates.id, fixture.templateId));
  return fixture;
}

const send = (fixture: { apiKey: string; campaignId: string }, body: unknown) =>
  callRoute<{ data: PublicMessage[] } & Problem>(testSend, "POST", `/api/v1/campaigns/${fixture.campaignId}/test-send`, {
    key: fixture.apiKey,
    params: { id: fixture.campaignId },
    body,
  });

describe("test sends of a trigger campaign", () => {
  it("renders the example request like a trigger, sends it for real as a test, before deploying, without touching contacts or counts", async () => {
    const fixture = await sandboxFixture({ status: "draft" });
    const result = await send(fixture, { phones: ["+1 415 555 2671"], request: { phone: "ignored", first_name: "Maria", order: "A-10482" } });
    expect(result.status).toBe(202);
    expect(result.body.data).toHaveLength(1);
    expect(result.body.data[0]).toMatchObject({
      status: "queued",
      source: "test",
      phone: "+14155552671",
      campaignId: fixture.campaignId,
      text: expect.stringContaining("Hi Maria, your order A-10482 has shipped."),
    });
    const db = await getDb();
    // The route starts a drain after its response; a pass of our own sends it if that one has not yet.
    await runDispatch({ db }, { workspaceIds: [fixture.workspaceId], deadlineMs: 10_000 });
    await dispatchSettled();
    const [stored] = await db.select().from(messages).where(eq(messages.id, result.body.data[0]!.id));
    expect(stored).toMatchObject({ status: "sent", source: "test" });
    expect(await db.select().from(contacts).where(eq(contacts.workspaceId, fixture.workspaceId))).toHaveLength(0);
    const funnel = await countFunnel(db, { workspaceId: fixture.workspaceId, campaignIds: [fixture.campaignId] });
    expect(funnel.sent).toBe(0);
  });

  it("reads the numbers as typed, by the one phone rule: the list the UI splits from `+34 612 34 56 78, +16466204510`, and a national number with its country", async () => {
    const fixture = await sandboxFixture({ status: "draft" });
    const typed = splitPhoneList("+34 612 34 56 78, +16466204510");
    expect(typed).toEqual(["+34 612 34 56 78", "+16466204510"]);
    const result = await send(fixture, { phones: typed, request: { first_name: "Maria", order: "A-1" } });
    expect(result.status).toBe(202);
    expect(result.body.data.map((m) => m.phone)).toEqual(["+34612345678", "+16466204510"]);
    const national = await send(fixture, { phones: ["612 34 56 78"], country: "ES", request: { first_name: "Maria", order: "A-1" } });
    expect(national.status).toBe(202);
    expect(national.body.data.map((m) => m.phone)).toEqual(["+34612345678"]);
    const noCountry = await send(fixture, { phones: ["612 34 56 78"], request: { first_name: "Maria", order: "A-1" } });
    expect(noCountry.status).toBe(422);
    expect(noCountry.body.errors).toEqual([expect.objectContaining({ path: "phones[0]", code: "invalid_phone", message: expect.stringContaining("no country code") })]);
    const unknownCountry = await send(fixture, { phones: ["612 34 56 78"], country: "XX", request: { order: "A-1" } });
    expect(unknownCountry.status).toBe(422);
    expect(unknownCountry.body.errors?.map((e) => e.path)).toContain("country");
  });

  it("answers 422 with the trigger's own errors, pointed at the request's fields or the phone, and stores nothing", async () => {
    const fixture = await sandboxFixture({ status: "draft" });
    const wrongType = await send(fixture, { phones: ["+14155552671"], request: { amount: "lots", order: "A-1" } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors?.map((e) => e.path)).toEqual(["request.amount"]);
    const badPhone = await send(fixture, { phones: ["not a phone"], request: { order: "A-1" } });
    expect(badPhone.status).toBe(422);
    expect(badPhone.body.errors?.[0]?.path).toBe("phones[0]");
    // The header and button need the order number, which has no fallback.
    const missing = await send(fixture, { phones: ["+14155552671"], request: { first_name: "Maria" } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.every((e) => e.path === "request.order" && e.code === "unrenderable_variable")).toBe(true);
    const db = await getDb();
    expect(await db.select().from(messages).where(eq(messages.campaignId, fixture.campaignId))).toHaveLength(0);
  });

  it("uses the pending revision of a live campaign, skips an opted-out contact, and refuses an archived campaign", async () => {
    const fixture = await sandboxFixture({ status: "active" });
    const db = await getDb();
    await db
      .update(campaigns)
      .set({
        draftRevision: {
          name: "Order shipped v2",
          triggerConfig: { phoneField: "mobile", fields: [{ field: "order", attribute: "order_id", type: "string", required: true }] },
          templateId: fixture.templateId,
          messageConfig: {
            variables: [
              { key: "header.1", attribute: "order_id", fallback: null },
              { key: "body.1", attribute: "name", fallback: "friend" },
              { key: "body.2", attribute: "order_id", fallback: null },
              { key: "button.0.1", attribute: "order_id", fallback: null },
            ],
          },
          respectOptOut: true,
        },
      })
      .where(eq(campaigns.id, fixture.campaignId));
    const revised = await send(fixture, { phones: ["+14155552671"], request: { order: "B-7" } });
    expect(revised.status).toBe(202);
    expect(revised.body.data[0]!.text).toContain("Hi friend, your order B-7 has shipped.");
    const required = await send(fixture, { phones: ["+14155552671"], request: {} });
    expect(required.body.errors?.map((e) => e.path)).toEqual(["request.order"]);

    await db.insert(contacts).values({ id: newId("ctc"), workspaceId: fixture.workspaceId, phoneNumber: "+14155550000", name: "Out", optedOutAt: new Date(), optOutMethod: "keyword", optOutDetail: "STOP", consentStatus: "unsubscribed" });
    const optedOut = await send(fixture, { phones: ["+14155550000"], request: { order: "B-8" } });
    expect(optedOut.body.data[0]).toMatchObject({ status: "skipped", error: { code: "opted_out" } });

    await db.update(campaigns).set({ status: "archived" }).where(eq(campaigns.id, fixture.campaignId));
    expect((await send(fixture, { phones: ["+14155552671"], request: { order: "B-9" } })).status).toBe(409);
  });

  it("writes the test phone at a nested phone path and points errors at the nested request path that was read", async () => {
    const fixture = await sandboxFixture({
      status: "draft",
      triggerConfig: {
        phoneField: "customer.phone",
        phoneFallbacks: ["shipping_address.phone"],
        fields: [
          { field: "customer.first_name", attribute: "name", type: "string", required: false },
          { field: "line_items[0].sku", fallbacks: ["order_number"], attribute: "order_id", type: "string", required: true },
        ],
      },
    });
    const ok = await send(fixture, { phones: ["+14155552671"], request: { customer: { first_name: "Maria" }, shipping_address: { phone: "+447911123456" }, order_number: 10482 } });
    expect(ok.status).toBe(202);
    expect(ok.body.data[0]).toMatchObject({ phone: "+14155552671", text: expect.stringContaining("Hi Maria, your order 10482 has shipped.") });
    const bad = await send(fixture, { phones: ["+14155552671"], request: { customer: { first_name: 5 }, line_items: [{ sku: true }] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.path)).toEqual(["request.line_items[0].sku"]);
  });

  it("keeps the example request for trigger campaigns: a bulk campaign's test refuses it", async () => {
    const fixture = await sandboxFixture({ kind: "bulk", status: "draft" });
    const result = await send(fixture, { phones: ["+14155552671"], request: { order: "A-1" } });
    expect(result.status).toBe(422);
    expect(result.body.errors?.[0]?.path).toBe("request");
  });
});
