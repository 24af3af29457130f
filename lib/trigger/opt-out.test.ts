import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { campaigns, contacts, messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { logsCsvStream } from "@/lib/logs/csv";
import { parseLogFilters } from "@/lib/logs/filters";
import { countLogStatuses } from "@/lib/logs/query";
import { runDispatch, systemClock } from "@/lib/messaging/dispatcher";
import type { Channel } from "@/lib/channels";
import { fakeChannels } from "@/lib/testing/fake-channels";
import { countingDb } from "@/lib/testing/counting-db";
import { createTriggerFixture, ORDER_TRIGGER_CONFIG, type TriggerFixture } from "@/lib/testing/trigger-factories";
import type { TriggerConfigInput } from "@/lib/campaigns/schemas";
import { getPublicMessage } from "./messages";
import { triggerCampaign, type AcceptedMessage } from "./service";

const OPTED_OUT = "+14155552671";
const OPTED_IN = "+447911123456";

async function fixture(options: { respectOptOut?: boolean; triggerConfig?: TriggerConfigInput } = {}) {
  const fx = await createTriggerFixture({ triggerConfig: options.triggerConfig });
  const db = await getDb();
  if (options.respectOptOut === false) await db.update(campaigns).set({ respectOptOut: false }).where(eq(campaigns.id, fx.campaignId));
  await db.insert(contacts).values([
    {
      id: newId("ctc"),
      workspaceId: fx.workspaceId,
      phoneNumber: OPTED_OUT,
      name: "Jane",
      optedOutAt: new Date("2026-11-20T09:30:00Z"),
      optOutMethod: "keyword",
      optOutDetail: "STOP",
      consentStatus: "unsubscribed",
    },
    { id: newId("ctc"), workspaceId: fx.workspaceId, phoneNumber: OPTED_IN, name: "Ann" },
  ]);
  return fx;
}

async function trigger(fx: TriggerFixture, body: unknown, executor?: Awaited<ReturnType<typeof getDb>>) {
  return triggerCampaign(executor ?? (await getDb()), {
    workspaceId: fx.workspaceId,
    apiKeyId: fx.apiKeyId,
    campaignId: fx.campaignId,
    request: new Request("http://localhost/api/campaigns/x/trigger", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    dryRun: false,
  });
}

/** A provider that records every send; the dispatcher must never call it for a skipped message. */
function recordingProviders() {
  const sent: string[] = [];
  const provider: Pick<Channel, "send"> = {
    async send(message) {
      sent.push(message.to);
      return { providerMessageId: `wamid.TEST.${message.id}` };
    },
  };
  return { sent, channels: fakeChannels(provider.send) };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("trigger sends to opted-out contacts", () => {
  it("records a skipped message with the reason, queues the rest of the batch, in the same two statements", async () => {
    const fx = await fixture();
    const { db: counting, statements } = await countingDb();
    const outcome = await trigger(fx, [{ phone: OPTED_OUT, order: "A-1" }, { phone: OPTED_IN, order: "A-2" }], counting);
    expect(statements).toHaveLength(2);
    expect(outcome.status).toBe(202);
    expect(outcome.queued).toBe(true);
    const data = (outcome.body as { data: AcceptedMessage[] }).data;
    expect(data.map((m) => [m.phone, m.status])).toEqual([
      [OPTED_OUT, "skipped"],
      [OPTED_IN, "queued"],
    ]);
    expect(data[0]!.error).toEqual({ code: "opted_out", reason: "Contact opted out (replied STOP on 2026-11-20)" });
    expect(data[1]!.error).toBeUndefined();

    const db = await getDb();
    const rows = await db.select().from(messages).where(eq(messages.campaignId, fx.campaignId));
    const skipped = rows.find((r) => r.phoneNumber === OPTED_OUT)!;
    expect(skipped).toMatchObject({
      id: data[0]!.id,
      status: "skipped",
      errorCode: "opted_out",
      errorReason: "Contact opted out (replied STOP on 2026-11-20)",
      attempts: 0,
      sentAt: null,
    });
    expect(skipped.renderedText).toContain("Hi Jane");
    expect(rows.find((r) => r.phoneNumber === OPTED_IN)).toMatchObject({ status: "queued", errorCode: null });

    // The dispatcher sends the queued one and never the skipped one.
    const { sent, channels } = recordingProviders();
    await runDispatch({ db, clock: systemClock, channels }, { workspaceIds: [fx.workspaceId] });
    expect(sent).toEqual([OPTED_IN]);
    const [after] = await db.select().from(messages).where(eq(messages.id, skipped.id));
    expect(after).toMatchObject({ status: "skipped", attempts: 0, providerMessageId: null, sentAt: null });
  });

  it("a single opted-out recipient gets 202 with status skipped and nothing to dispatch; logs and CSV count and explain it", async () => {
    const fx = await fixture();
    const outcome = await trigger(fx, { phone: OPTED_OUT, order: "B-1" });
    expect(outcome.status).toBe(202);
    expect(outcome.queued).toBe(false);
    const body = outcome.body as AcceptedMessage;
    expect(body).toMatchObject({ status: "skipped", phone: OPTED_OUT, error: { code: "opted_out" } });
    expect(outcome.headers.Location).toBe(`/api/v1/messages/${body.id}`);
    expect(await getPublicMessage(await getDb(), fx.workspaceId, body.id)).toMatchObject({
      status: "skipped",
      error: { code: "opted_out", reason: "Contact opted out (replied STOP on 2026-11-20)" },
      sentAt: null,
    });

    const db = await getDb();
    const scope = { workspaceId: fx.workspaceId, campaignId: fx.campaignId };
    expect(await countLogStatuses(db, scope, {})).toMatchObject({ skipped: 1, queued: 0, total: 1 });
    const csv = await readAll(await logsCsvStream(db, scope, parseLogFilters({ status: "skipped" })));
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,"${OPTED_OUT}",`);
    expect(lines[1]).toContain(',skipped,"opted_out","Contact opted out (replied STOP on 2026-11-20)",,,');
    const none = await readAll(await logsCsvStream(db, scope, parseLogFilters({ status: "queued" })));
    expect(none.trim().split("\r\n")).toHaveLength(1);
  });

  it("skips an opted-out contact reached through a nested national phone read in the body's country, in the same two statements", async () => {
    const fx = await fixture({
      triggerConfig: { ...ORDER_TRIGGER_CONFIG, phoneField: "customer.phone", phoneFallbacks: ["shipping_address.phone"], countryField: "shipping_address.country_code" },
    });
    const { db: counting, statements } = await countingDb();
    // (415) 555-2671 in the US is OPTED_OUT; 07911 123456 in GB is OPTED_IN.
    const outcome = await trigger(
      fx,
      [
        { customer: { phone: null }, shipping_address: { phone: "(415) 555-2671", country_code: "US" }, order: "N-1" },
        { customer: { phone: "07911 123456" }, shipping_address: { country_code: "GB" }, order: "N-2" },
      ],
      counting,
    );
    expect(statements).toHaveLength(2);
    expect(outcome.status).toBe(202);
    const data = (outcome.body as { data: AcceptedMessage[] }).data;
    expect(data.map((m) => [m.phone, m.status, m.error?.code])).toEqual([
      [OPTED_OUT, "skipped", "opted_out"],
      [OPTED_IN, "queued", undefined],
    ]);
  });

  it("sends to opted-out contacts as before when the campaign does not respect opt-outs", async () => {
    const fx = await fixture({ respectOptOut: false });
    const outcome = await trigger(fx, { phone: OPTED_OUT, order: "C-1" });
    expect(outcome).toMatchObject({ status: 202, queued: true, body: { status: "queued" } });
    expect((outcome.body as AcceptedMessage).error).toBeUndefined();
    const db = await getDb();
    const [row] = await db.select().from(messages).where(eq(messages.campaignId, fx.campaignId));
    expect(row).toMatchObject({ status: "queued", errorCode: null, errorReason: null });
  });

  it("a contact who opted back in is queued again", async () => {
    const fx = await fixture();
    const db = await getDb();
    await db.update(contacts).set({ optedOutAt: null, optOutMethod: null, optOutDetail: null, consentStatus: "unknown" }).where(eq(contacts.workspaceId, fx.workspaceId));
    const outcome = await trigger(fx, { phone: OPTED_OUT, order: "D-1" });
    expect(outcome.body).toMatchObject({ status: "queued" });
  });
});
