import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { campaigns } from "@/db/schema";
import { parseStoredTriggerConfig } from "@/lib/campaigns/schemas";
import { ApiError } from "@/lib/http/errors";
import { createTriggerFixture, ORDER_MESSAGE_CONFIG, ORDER_TRIGGER_CONFIG } from "@/lib/testing/trigger-factories";
import { compiledCampaignConfig } from "./campaign-config";
import { triggerCampaign } from "./service";

const stored = (version: number, trigger: unknown = ORDER_TRIGGER_CONFIG, message: unknown = ORDER_MESSAGE_CONFIG) => ({
  id: "cmp_cache_test",
  version,
  trigger_config: JSON.stringify(trigger),
  message_config: JSON.stringify(message),
});

describe("compiled campaign configuration", () => {
  it("is reused while the version and the stored text are unchanged, and rebuilt when either changes", () => {
    const first = compiledCampaignConfig(stored(1));
    expect(compiledCampaignConfig(stored(1))).toBe(first);
    expect(first.triggerConfig).toEqual(parseStoredTriggerConfig(ORDER_TRIGGER_CONFIG));
    const bumped = compiledCampaignConfig(stored(2));
    expect(bumped).not.toBe(first);
    const edited = compiledCampaignConfig(stored(2, { ...ORDER_TRIGGER_CONFIG, fields: [] }));
    expect(edited).not.toBe(bumped);
    expect(edited.triggerConfig.fields).toEqual([]);
  });

  it("reads unparseable stored JSON as an empty configuration instead of failing", () => {
    const broken = compiledCampaignConfig({ id: "cmp_cache_broken", version: 1, trigger_config: "{", message_config: "null" });
    expect(broken.triggerConfig.fields).toEqual([]);
    expect(broken.messageConfig.variables).toEqual([]);
  });

  it("a trigger sees an edited configuration on the very next request", async () => {
    const fx = await createTriggerFixture();
    const db = await getDb();
    const send = () =>
      triggerCampaign(db, {
        workspaceId: fx.workspaceId,
        apiKeyId: fx.apiKeyId,
        campaignId: fx.campaignId,
        request: new Request("http://localhost/t", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ phone: "+14155552671", order: "ORD-1" }),
        }),
        dryRun: true,
      });
    expect((await send()).status).toBe(200);
    const requiredVip = { ...ORDER_TRIGGER_CONFIG, fields: ORDER_TRIGGER_CONFIG.fields.map((f) => (f.field === "vip" ? { ...f, required: true } : f)) };
    // Same version on purpose: the stored text alone must invalidate the compiled entry.
    await db.update(campaigns).set({ triggerConfig: requiredVip, version: sql`${campaigns.version}` }).where(eq(campaigns.id, fx.campaignId));
    const refused = await send().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(422);
    expect(JSON.stringify((refused as ApiError).errors)).toContain("vip");
  });
});
