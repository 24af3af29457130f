import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { campaigns, contacts, messages, rateLimitCounters, senders } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { countingDb } from "@/lib/testing/counting-db";
import { createTriggerCampaign, createTriggerFixture, type TriggerFixture } from "@/lib/testing/trigger-factories";
import { keyBucket, leaseSize, RATE_LIMIT_WINDOW_SECONDS, RateLimitLeases } from "./rate-limit";
import { triggerCampaign, type TriggerOutcome } from "./service";

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

const savedKeyLimit = process.env.TRIGGER_KEY_RATE_LIMIT_PER_MINUTE;
afterEach(() => {
  if (savedKeyLimit === undefined) delete process.env.TRIGGER_KEY_RATE_LIMIT_PER_MINUTE;
  else process.env.TRIGGER_KEY_RATE_LIMIT_PER_MINUTE = savedKeyLimit;
});

function request(body: unknown, options: { headers?: Record<string, string>; raw?: string | Uint8Array } = {}): Request {
  return new Request("http://localhost/api/campaigns/x/trigger", {
    method: "POST",
    headers: { "content-type": "application/json", ...options.headers },
    body: (options.raw ?? JSON.stringify(body)) as BodyInit,
  });
}

type Result = { ok: true; outcome: TriggerOutcome } | { ok: false; error: ApiError };

async function trigger(
  fx: Pick<TriggerFixture, "workspaceId" | "apiKeyId" | "campaignId">,
  body: unknown,
  options: { headers?: Record<string, string>; raw?: string | Uint8Array; dryRun?: boolean; executor?: DB; leases?: RateLimitLeases } = {},
): Promise<Result> {
  try {
    const outcome = await triggerCampaign(options.executor ?? db, {
      workspaceId: fx.workspaceId,
      apiKeyId: fx.apiKeyId,
      campaignId: fx.campaignId,
      request: request(body, options),
      dryRun: options.dryRun ?? false,
      leases: options.leases,
    });
    return { ok: true, outcome };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
}

function expectError(result: Result, status: number): ApiError {
  if (result.ok) throw new Error(`Expected ${status}, got ${result.outcome.status}: ${JSON.stringify(result.outcome.body)}`);
  expect(result.error.status, result.error.detail).toBe(status);
  return result.error;
}

function expectAccepted(result: Result): TriggerOutcome {
  if (!result.ok) throw new Error(`Expected success, got ${result.error.status}: ${result.error.detail} ${JSON.stringify(result.error.errors)}`);
  return result.outcome;
}

const campaignMessages = (campaignId: string) => db.select().from(messages).where(eq(messages.campaignId, campaignId));
const workspaceContacts = (workspaceId: string) => db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId));

describe("accepted requests", () => {
  it("queues one rendered message for an object body and upserts the contact", async () => {
    const fx = await createTriggerFixture();
    const outcome = expectAccepted(await trigger(fx, { phone: "+14155552671", first_name: "Jane", order: "ORD-1", amount: 12.5, vip: true, ignored: "x" }));
    expect(outcome.status).toBe(202);
    const body = outcome.body as { id: string; status: string; campaignId: string; phone: string; createdAt: string };
    expect(body).toEqual({ id: expect.stringMatching(/^msg_/), status: "queued", campaignId: fx.campaignId, phone: "+14155552671", createdAt: expect.any(String) });
    expect(outcome.headers.Location).toBe(`/api/v1/messages/${body.id}`);
    expect(outcome.headers["RateLimit-Policy"]).toBe('"key";q=1200;w=60, "campaign";q=600;w=60');
    expect(outcome.queued).toBe(true);

    const [message] = await campaignMessages(fx.campaignId);
    expect(message).toMatchObject({
      id: body.id,
      status: "queued",
      phoneNumber: "+14155552671",
      templateName: "order_shipped",
      templateLanguage: "en_US",
      apiKeyId: fx.apiKeyId,
      renderedText: "Order ORD-1\nHi Jane, your order ORD-1 has shipped.\nReply STOP to opt out",
    });
    expect(message!.createdAt.toISOString()).toBe(body.createdAt);
    // Queued for the sender the request loaded (the campaign's), which alone may send it.
    const [sender] = await db.select({ id: senders.id }).from(senders).where(eq(senders.workspaceId, fx.workspaceId));
    expect(message!.senderId).toBe(sender!.id);
    expect(message!.payload).toEqual({
      template: {
        name: "order_shipped",
        language: { code: "en_US" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "ORD-1" }] },
          { type: "body", parameters: [{ type: "text", text: "Jane" }, { type: "text", text: "ORD-1" }] },
          { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "ORD-1" }] },
        ],
      },
    });
    const [contact] = await workspaceContacts(fx.workspaceId);
    expect(contact).toMatchObject({ id: message!.contactId, phoneNumber: "+14155552671", name: "Jane", attributes: { order_id: "ORD-1", amount: 12.5, vip: true } });
  });

  it("queues every item of an array body and answers { data: [...] }", async () => {
    const fx = await createTriggerFixture();
    const items = [
      { phone: "+14155552671", order: "A-1" },
      { phone: "+447911123456", order: "A-2", first_name: "Ann" },
      { phone: "+14155552671", order: "A-3" },
    ];
    const outcome = expectAccepted(await trigger(fx, items));
    const data = (outcome.body as { data: { id: string; phone: string }[] }).data;
    expect(data.map((m) => m.phone)).toEqual(items.map((i) => i.phone));
    expect(outcome.headers.Location).toBeUndefined();
    const rows = await campaignMessages(fx.campaignId);
    expect(rows.map((r) => r.id).sort()).toEqual(data.map((m) => m.id).sort());
    const people = await workspaceContacts(fx.workspaceId);
    expect(people).toHaveLength(2);
    // The later item for the same phone wins.
    expect(people.find((c) => c.phoneNumber === "+14155552671")!.attributes).toEqual({ order_id: "A-3" });
  });

  it("renders from the contact's stored attributes, then the fallback, and merges new attributes", async () => {
    const fx = await createTriggerFixture();
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "OLD-7", email: "jane@example.com", first_name: "Jane" }));
    const outcome = expectAccepted(await trigger(fx, { phone: "+14155552671", amount: 3 }));
    const id = (outcome.body as { id: string }).id;
    const [message] = await db.select().from(messages).where(eq(messages.id, id));
    expect(message!.renderedText).toContain("Hi Jane, your order OLD-7 has shipped.");
    const [contact] = await workspaceContacts(fx.workspaceId);
    expect(contact!.attributes).toEqual({ order_id: "OLD-7", email: "jane@example.com", amount: 3 });

    const other = expectAccepted(await trigger(fx, { phone: "+447911123456", order: "N-1" }));
    const [fresh] = await db.select().from(messages).where(eq(messages.id, (other.body as { id: string }).id));
    expect(fresh!.renderedText).toContain("Hi there, your order N-1");
  });

  it("costs two statements after authentication: context with rate limit, then the insert", async () => {
    const fx = await createTriggerFixture();
    const { db: counting, statements } = await countingDb();
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "R-1" }, { executor: counting }));
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/insert into rate_limit_counters/);
    expect(statements[1]).toMatch(/insert into messages/);
  });
});

describe("refusals", () => {
  it("422 with per-field errors and nothing stored when any item of a batch is invalid", async () => {
    const fx = await createTriggerFixture();
    const error = expectError(
      await trigger(fx, [
        { phone: "+14155552671", order: "A" },
        { phone: "+447911123456", order: "B" },
        { phone: "+1555", order: "C", amount: "12", vip: "yes", email: "nope", due: "31/05/2026" },
      ]),
      422,
    );
    expect(error.errors!.map((e) => e.path)).toEqual(["[2].phone", "[2].amount", "[2].vip", "[2].email", "[2].due"]);
    expect(error.errors![0]).toMatchObject({ code: "invalid_phone" });
    expect(await campaignMessages(fx.campaignId)).toHaveLength(0);
    expect(await workspaceContacts(fx.workspaceId)).toHaveLength(0);
  });

  it("422 for text Postgres cannot store (NUL, unpaired surrogates), never a 500", async () => {
    const fx = await createTriggerFixture();
    for (const raw of ['{"phone":"+14155552671","order":"A\\u0000B"}', '{"phone":"+14155552671","order":"A","first_name":"\\ud800x"}']) {
      const error = expectError(await trigger(fx, null, { raw }), 422);
      expect(error.errors![0]).toMatchObject({ code: "invalid_characters" });
    }
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A-😀", first_name: "Zoë" }));
  });

  it("validates phones as real numbers, not by shape alone", async () => {
    const fx = await createTriggerFixture();
    for (const phone of ["+11234567890", "14155552671", "+1 (123) 456-7890", 14155552671, null]) {
      const error = expectError(await trigger(fx, { phone, order: "A" }), 422);
      expect(error.errors![0]!.path).toBe("phone");
    }
    // Written out with a + and separators, the number is normalised rather than refused.
    for (const phone of ["+1 415 555 2671", " +14155552671"]) {
      const accepted = await trigger(fx, { phone, order: "A" });
      expect(accepted.ok && (accepted.outcome.body as { phone: string }).phone).toBe("+14155552671");
    }
    expectError(await trigger(fx, { order: "A" }), 422);
  });

  it("required fields and types follow the trigger node", async () => {
    const fx = await createTriggerFixture({
      triggerConfig: { phoneField: "mobile", fields: [{ field: "order", attribute: "order_id", type: "string", required: true }] },
    });
    const error = expectError(await trigger(fx, { phone: "+14155552671" }), 422);
    expect(error.errors).toEqual([
      expect.objectContaining({ path: "mobile", code: "required" }),
      expect.objectContaining({ path: "order", code: "required" }),
    ]);
    expectAccepted(await trigger(fx, { mobile: "+14155552671", order: "X" }));
  });

  it("422 naming the field when a template variable has no value", async () => {
    const fx = await createTriggerFixture();
    const error = expectError(await trigger(fx, [{ phone: "+14155552671", order: "A" }, { phone: "+447911123456" }]), 422);
    expect(error.errors!.map((e) => [e.path, e.code])).toContainEqual(["[1].order", "unrenderable_variable"]);
    expect(await campaignMessages(fx.campaignId)).toHaveLength(0);
  });

  it.each(["draft", "paused", "archived"] as const)("409 naming the status for a %s campaign, nothing stored", async (status) => {
    const fx = await createTriggerFixture({ status });
    const error = expectError(await trigger(fx, { phone: "+14155552671", order: "A" }), 409);
    expect(error.detail).toContain(`The campaign is ${status}`);
    expect(await campaignMessages(fx.campaignId)).toHaveLength(0);
    expect(await workspaceContacts(fx.workspaceId)).toHaveLength(0);
  });

  it("409 when the template is no longer approved", async () => {
    const fx = await createTriggerFixture({ templateStatus: "PAUSED" });
    expectError(await trigger(fx, { phone: "+14155552671", order: "A" }), 409);
  });

  it("404 for another workspace's campaign, exactly as for a missing one, and touches nothing there", async () => {
    const mine = await createTriggerFixture();
    const theirs = await createTriggerFixture();
    const foreign = expectError(await trigger({ ...mine, campaignId: theirs.campaignId }, { phone: "+14155552671", order: "A" }), 404);
    const missing = expectError(await trigger({ ...mine, campaignId: "cmp_doesnotexist" }, { phone: "+14155552671", order: "A" }), 404);
    expect(foreign.detail).toBe(missing.detail);
    expect(await campaignMessages(theirs.campaignId)).toHaveLength(0);
    expect(await workspaceContacts(theirs.workspaceId)).toHaveLength(0);
    const counters = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.bucket, `trigger:campaign:${theirs.campaignId}`));
    expect(counters).toHaveLength(0);
  });

  it("415, 413 and 400 for the body itself", async () => {
    const fx = await createTriggerFixture();
    expectError(await trigger(fx, {}, { headers: { "content-type": "text/plain" } }), 415);
    expectError(await trigger(fx, null, { raw: '{"phone": ' }), 400);
    expectError(await trigger(fx, null, { raw: new Uint8Array([0x7b, 0xff, 0x7d]) }), 400);
    expectError(await trigger(fx, null, { raw: "" }), 400);
    const bigObject = JSON.stringify({ phone: "+14155552671", order: "A", pad: "x".repeat(64 * 1024) });
    expectError(await trigger(fx, null, { raw: bigObject }), 413);
    // The same size as an array passes the size check (and is then validated).
    const bigArray = JSON.stringify([{ phone: "+14155552671", order: "A", pad: "x".repeat(64 * 1024) }]);
    expectAccepted(await trigger(fx, null, { raw: bigArray }));
    expectError(await trigger(fx, null, { raw: `[${"0".repeat(1024 * 1024)}]` }), 413);
  });

  it("422 for bodies that are not an object or an array of 1–100 objects", async () => {
    const fx = await createTriggerFixture();
    for (const body of ["text", 12, [], [1], Array.from({ length: 101 }, () => ({ phone: "+14155552671", order: "A" }))]) {
      expectError(await trigger(fx, body), 422);
    }
    expectAccepted(await trigger(fx, Array.from({ length: 100 }, (_, i) => ({ phone: "+14155552671", order: `A-${i}` }))));
    expect(await campaignMessages(fx.campaignId)).toHaveLength(100);
  });
});

describe("rate limits", () => {
  // The windows are fixed minutes: a test that counts within one starts at least 10 s before it ends
  // (one that crossed into the next window was seen to accept all of its 260 requests).
  beforeEach(async () => {
    const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  });

  it("429 with Retry-After and RateLimit headers once the campaign's limit is used up", async () => {
    const fx = await createTriggerFixture({ rateLimitPerMinute: 2 });
    const first = expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }));
    expect(first.headers.RateLimit).toMatch(/^"key";r=1199;t=\d+, "campaign";r=1;t=\d+$/);
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "B" }));
    const limited = expectError(await trigger(fx, { phone: "+14155552671", order: "C" }), 429);
    const headers = new Headers(limited.headers);
    expect(headers.get("Retry-After")).toMatch(/^[1-9]\d*$/);
    expect(Number(headers.get("Retry-After"))).toBeLessThanOrEqual(60);
    expect(headers.get("RateLimit-Policy")).toBe('"key";q=1200;w=60, "campaign";q=2;w=60');
    expect(headers.get("RateLimit")).toMatch(/"campaign";r=0;t=\d+/);
    expect(limited.extensions).toEqual({ "violated-policies": ["campaign"] });
    expect(await campaignMessages(fx.campaignId)).toHaveLength(2);
    // The limit comes before parsing: a broken body is refused as rate limited too.
    expectError(await trigger(fx, null, { raw: "{" }), 429);
  });

  it("limits each key across campaigns (TRIGGER_KEY_RATE_LIMIT_PER_MINUTE), not other keys", async () => {
    process.env.TRIGGER_KEY_RATE_LIMIT_PER_MINUTE = "3";
    const fx = await createTriggerFixture();
    const second = await createTriggerCampaign(fx.workspaceId, fx.templateId);
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }));
    expectAccepted(await trigger({ ...fx, campaignId: second }, { phone: "+14155552671", order: "A" }));
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }));
    const limited = expectError(await trigger({ ...fx, campaignId: second }, { phone: "+14155552671", order: "A" }), 429);
    expect(limited.extensions).toEqual({ "violated-policies": ["key"] });
    const other = await createTriggerFixture();
    expectAccepted(await trigger(other, { phone: "+14155552671", order: "A" }));
  });

  it("writes the counters once per lease: the next requests use the counts this process holds", async () => {
    const fx = await createTriggerFixture();
    const leases = new RateLimitLeases();
    const { db: counting, statements } = await countingDb();
    const first = expectAccepted(await trigger(fx, { phone: "+14155552671", order: "L-1" }, { executor: counting, leases }));
    expect(statements[0]).toMatch(/insert into rate_limit_counters/);
    statements.length = 0;
    const second = expectAccepted(await trigger(fx, { phone: "+14155552671", order: "L-2" }, { executor: counting, leases }));
    expect(statements).toHaveLength(2);
    expect(statements[0]).not.toMatch(/rate_limit_counters/);
    expect(first.headers.RateLimit).toMatch(/^"key";r=1199;t=\d+, "campaign";r=599;t=\d+$/);
    expect(second.headers.RateLimit).toMatch(/^"key";r=1198;t=\d+, "campaign";r=598;t=\d+$/);
    // Postgres holds what was claimed: one lease of each bucket.
    const [keyCounter] = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.bucket, keyBucket(fx.apiKeyId)));
    expect(keyCounter!.count).toBe(leaseSize(1200));
    const [campaignCounter] = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.bucket, `trigger:campaign:${fx.campaignId}`));
    expect(campaignCounter!.count).toBe(leaseSize(600));
  });

  it("never accepts more than the limit across instances; each refuses at most a lease short of it", async () => {
    const limit = 200;
    const fx = await createTriggerFixture({ rateLimitPerMinute: limit });
    const instances = [new RateLimitLeases(), new RateLimitLeases()];
    const results = await Promise.all(
      Array.from({ length: 260 }, (_, i) => trigger(fx, { phone: "+14155552671", order: `X-${i}` }, { leases: instances[i % 2] })),
    );
    const accepted = results.filter((r) => r.ok).length;
    expect(accepted).toBeLessThanOrEqual(limit);
    expect(accepted).toBeGreaterThanOrEqual(limit - (instances.length - 1) * (leaseSize(limit) - 1));
    expect(results.filter((r) => !r.ok && r.error.status === 429)).toHaveLength(260 - accepted);
    expect(await campaignMessages(fx.campaignId)).toHaveLength(accepted);
  });

  it("checks a held count against the campaign's current limit: a limit lowered mid-window applies at once", async () => {
    const fx = await createTriggerFixture({ rateLimitPerMinute: 600 });
    const leases = new RateLimitLeases();
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }, { leases }));
    await db.update(campaigns).set({ rateLimitPerMinute: 1 }).where(eq(campaigns.id, fx.campaignId));
    const limited = expectError(await trigger(fx, { phone: "+14155552671", order: "B" }, { leases }), 429);
    expect(limited.extensions).toEqual({ "violated-policies": ["campaign"] });
  });

  it("counts concurrent requests exactly (the counter is one atomic upsert)", async () => {
    const fx = await createTriggerFixture({ rateLimitPerMinute: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => trigger(fx, { phone: "+14155552671", order: `C-${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.error.status === 429)).toHaveLength(7);
    expect(await campaignMessages(fx.campaignId)).toHaveLength(5);
  });
});

describe("idempotency", () => {
  it("replays the first response for the same key and body, and sends nothing new", async () => {
    const fx = await createTriggerFixture();
    const headers = { "Idempotency-Key": "order-123" };
    const first = expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }, { headers }));
    const again = expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }, { headers }));
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers["Idempotent-Replay"]).toBe("true");
    expect(again.headers.Location).toBe(first.headers.Location);
    expect(again.queued).toBe(false);
    expect(first.headers["Idempotent-Replay"]).toBeUndefined();
    expect(await campaignMessages(fx.campaignId)).toHaveLength(1);

    // The key is scoped to the campaign.
    const second = await createTriggerCampaign(fx.workspaceId, fx.templateId);
    const elsewhere = expectAccepted(await trigger({ ...fx, campaignId: second }, { phone: "+14155552671", order: "A" }, { headers }));
    expect(elsewhere.headers["Idempotent-Replay"]).toBeUndefined();
  });

  it("422 for the same key with a different body", async () => {
    const fx = await createTriggerFixture();
    const headers = { "Idempotency-Key": "order-124" };
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }, { headers }));
    const error = expectError(await trigger(fx, { phone: "+14155552671", order: "B" }, { headers }), 422);
    expect(error.code).toBe("idempotency_key_reused");
    expect(await campaignMessages(fx.campaignId)).toHaveLength(1);
  });

  it("concurrent requests with one key send once and all get the same answer", async () => {
    const fx = await createTriggerFixture();
    const headers = { "Idempotency-Key": "burst-1" };
    const body = [{ phone: "+14155552671", order: "A" }, { phone: "+447911123456", order: "B" }];
    const results = await Promise.all(Array.from({ length: 8 }, () => trigger(fx, body, { headers })));
    const outcomes = results.map(expectAccepted);
    for (const outcome of outcomes) expect(outcome.body).toEqual(outcomes[0]!.body);
    expect(outcomes.filter((o) => o.headers["Idempotent-Replay"] !== "true")).toHaveLength(1);
    expect(await campaignMessages(fx.campaignId)).toHaveLength(2);
  });

  it("a key older than 24 hours starts over", async () => {
    const fx = await createTriggerFixture();
    const headers = { "Idempotency-Key": "old-1" };
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }, { headers }));
    await db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where campaign_id = ${fx.campaignId}`);
    const fresh = expectAccepted(await trigger(fx, { phone: "+14155552671", order: "B" }, { headers }));
    expect(fresh.headers["Idempotent-Replay"]).toBeUndefined();
    expect(await campaignMessages(fx.campaignId)).toHaveLength(2);
  });

  it("400 for an unusable Idempotency-Key; refused requests are not stored", async () => {
    const fx = await createTriggerFixture();
    expectError(await trigger(fx, { phone: "+14155552671", order: "A" }, { headers: { "Idempotency-Key": "x".repeat(256) } }), 400);
    expectError(await trigger(fx, { phone: "+14155552671", order: "A" }, { headers: { "Idempotency-Key": "   " } }), 400);
    const headers = { "Idempotency-Key": "fix-and-retry" };
    expectError(await trigger(fx, { phone: "+1555", order: "A" }, { headers }), 422);
    expectAccepted(await trigger(fx, { phone: "+14155552671", order: "A" }, { headers }));
  });
});

describe("dry run", () => {
  it("validates and renders, stores and sends nothing", async () => {
    const fx = await createTriggerFixture();
    const outcome = expectAccepted(await trigger(fx, { phone: "+14155552671", order: "D-1", first_name: "Dee" }, { dryRun: true }));
    expect(outcome.status).toBe(200);
    expect(outcome.queued).toBe(false);
    expect(outcome.body).toMatchObject({
      dryRun: true,
      status: "valid",
      phone: "+14155552671",
      text: "Order D-1\nHi Dee, your order D-1 has shipped.\nReply STOP to opt out",
      template: { name: "order_shipped", language: { code: "en_US" } },
      attributes: { name: "Dee", order_id: "D-1", phoneNumber: "+14155552671" },
    });
    expect(await campaignMessages(fx.campaignId)).toHaveLength(0);
    expect(await workspaceContacts(fx.workspaceId)).toHaveLength(0);
    expectError(await trigger(fx, { phone: "+14155552671" }, { dryRun: true }), 422);
  });
});
