import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { triggerConfigSchema, updateRuleOf, type TriggerConfigInput } from "@/lib/campaigns/schemas";
import { countingDb } from "@/lib/testing/counting-db";
import { createTriggerFixture, type TriggerFixture } from "@/lib/testing/trigger-factories";
import { triggerCampaign, type AcceptedMessage } from "./service";

const SOFIA = "+34612345678";
const NEW_PHONE = "+34699999999";

const config = (rules: { name?: "always" | "when_empty" | "never"; city?: "always" | "when_empty" | "never"; order?: "always" | "when_empty" | "never" }): TriggerConfigInput => ({
  phoneField: "phone",
  fields: [
    { field: "customer.first_name", attribute: "name", type: "string", required: false, ...(rules.name ? { update: rules.name } : {}) },
    { field: "city", attribute: "city", type: "string", required: false, ...(rules.city ? { update: rules.city } : {}) },
    { field: "order", attribute: "order_id", type: "string", required: false, ...(rules.order ? { update: rules.order } : {}) },
  ],
});

async function fixture(triggerConfig: TriggerConfigInput, stored: { name: string | null; attributes: Record<string, unknown>; optedOut?: boolean }) {
  const fx = await createTriggerFixture({ triggerConfig });
  const db = await getDb();
  await db.insert(contacts).values({
    id: newId("ctc"),
    workspaceId: fx.workspaceId,
    phoneNumber: SOFIA,
    name: stored.name,
    attributes: stored.attributes,
    updatedAt: new Date("2026-01-01T00:00:00Z"),
    ...(stored.optedOut ? { optedOutAt: new Date("2026-11-20T09:30:00Z"), optOutMethod: "keyword" as const, optOutDetail: "STOP", consentStatus: "unsubscribed" as const } : {}),
  });
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

async function contact(fx: TriggerFixture, phone = SOFIA) {
  const db = await getDb();
  const [row] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, fx.workspaceId), eq(contacts.phoneNumber, phone)));
  return row!;
}

const REQUEST = { phone: SOFIA, customer: { first_name: "Sofía" }, city: "Sevilla", order: "A-2" };

describe("update rules of the trigger's mapped fields", () => {
  it("always: the request's values replace the stored ones, in the same two statements", async () => {
    const fx = await fixture(config({ name: "always", city: "always", order: "always" }), { name: "Sofía López", attributes: { city: "Madrid", order_id: "A-1" } });
    const { db: counting, statements } = await countingDb();
    expect((await trigger(fx, REQUEST, counting)).status).toBe(202);
    expect(statements).toHaveLength(2);
    const row = await contact(fx);
    expect(row.name).toBe("Sofía");
    expect(row.attributes).toEqual({ city: "Sevilla", order_id: "A-2" });
    expect(row.updatedAt.getTime()).toBeGreaterThan(new Date("2026-01-02").getTime());
  });

  it("only when empty: stored values stay, missing, null and empty ones are filled", async () => {
    const fx = await fixture(config({ name: "when_empty", city: "when_empty", order: "when_empty" }), { name: "Sofía López", attributes: { city: "Madrid", order_id: "" } });
    expect((await trigger(fx, REQUEST)).status).toBe(202);
    const row = await contact(fx);
    expect(row.name).toBe("Sofía López");
    expect(row.attributes).toEqual({ city: "Madrid", order_id: "A-2" });

    const blank = await fixture(config({ name: "when_empty", city: "when_empty", order: "always" }), { name: "  ", attributes: { city: null } });
    await trigger(blank, REQUEST);
    const filled = await contact(blank);
    expect(filled.name).toBe("Sofía");
    expect(filled.attributes).toEqual({ city: "Sevilla", order_id: "A-2" });
  });

  it("never: the value renders the message but is not stored, not even on a new contact", async () => {
    const fx = await fixture(config({ name: "never", city: "never", order: "always" }), { name: null, attributes: {} });
    const outcome = await trigger(fx, [REQUEST, { ...REQUEST, phone: NEW_PHONE }]);
    expect(outcome.status).toBe(202);
    const row = await contact(fx);
    expect(row.name).toBeNull();
    expect(row.attributes).toEqual({ order_id: "A-2" });
    const created = await contact(fx, NEW_PHONE);
    expect(created.name).toBeNull();
    expect(created.attributes).toEqual({ order_id: "A-2" });
  });

  it("a field without a rule: only when empty for the name, always for other attributes (stored campaigns keep working)", async () => {
    const parsed = triggerConfigSchema.parse(config({}));
    expect(parsed.fields.map(updateRuleOf)).toEqual(["when_empty", "always", "always"]);
    const fx = await fixture(config({}), { name: "Sofía López", attributes: { city: "Madrid" } });
    await trigger(fx, REQUEST);
    const row = await contact(fx);
    expect(row.name).toBe("Sofía López");
    expect(row.attributes).toEqual({ city: "Sevilla", order_id: "A-2" });
  });

  it("a request skipped because the contact opted out changes nothing on the contact", async () => {
    const fx = await fixture(config({ name: "always", city: "always", order: "always" }), { name: "Sofía López", attributes: { city: "Madrid" }, optedOut: true });
    const before = await contact(fx);
    const outcome = await trigger(fx, REQUEST);
    expect((outcome.body as AcceptedMessage).status).toBe("skipped");
    const after = await contact(fx);
    expect(after).toEqual(before);
  });

  it("a rejected request changes nothing", async () => {
    const fx = await fixture({ ...config({ name: "always" }), fields: [{ field: "customer.first_name", attribute: "name", type: "string", required: true, update: "always" }] }, { name: "Sofía López", attributes: {} });
    const before = await contact(fx);
    await expect(trigger(fx, { phone: SOFIA, customer: {} })).rejects.toMatchObject({ code: "validation_failed" });
    expect(await contact(fx)).toEqual(before);
  });
});
