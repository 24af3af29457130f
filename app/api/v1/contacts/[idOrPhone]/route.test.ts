import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { parseStrict } from "@/lib/http/request";
import { contactSchema } from "@/lib/openapi/schemas";
import { callRoute, createApiAccount } from "@/lib/testing/api-factories";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { triggerCampaign } from "@/lib/trigger/service";
import { GET, POST, PUT } from "./route";

const PHONE = "+14155552671";
type Contact = { id: string; phone: string; name: string | null; attributes: Record<string, unknown>; errors?: { path: string; code: string }[] };

const get = (key: string, phone: string) => callRoute<Contact>(GET, "GET", `/api/v1/contacts/${phone}`, { key, params: { idOrPhone: phone } });
const put = (key: string, phone: string, body: unknown) => callRoute<Contact>(PUT, "PUT", `/api/v1/contacts/${phone}`, { key, params: { idOrPhone: phone }, body });

describe("/api/v1/contacts/{idOrPhone} (by phone)", () => {
  it("PUT creates (201, Location), then merges attributes and keeps the name unless one is sent (200)", async () => {
    const account = await createApiAccount();
    const created = await put(account.key, PHONE, { name: "Maria", attributes: { order_id: "A-1", vip: true } });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/api/v1/contacts/%2B14155552671");
    expect(parseStrict(contactSchema, created.body)).toMatchObject({ phone: PHONE, name: "Maria", attributes: { order_id: "A-1", vip: true } });

    const updated = await put(account.key, encodeURIComponent(PHONE), { attributes: { order_id: "A-2", points: 12 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, name: "Maria", attributes: { order_id: "A-2", vip: true, points: 12 } });

    const fetched = await get(account.key, encodeURIComponent(PHONE));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(updated.body);
  });

  it("reads what trigger requests stored, and a PUT merges with it the same way", async () => {
    const fx = await createTriggerFixture();
    await triggerCampaign(await getDb(), {
      workspaceId: fx.workspaceId,
      apiKeyId: fx.apiKeyId,
      campaignId: fx.campaignId,
      dryRun: false,
      request: new Request("http://localhost/t", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone: PHONE, first_name: "Jo", order: "ORD-1", vip: false }),
      }),
    });
    const stored = await get(fx.apiKey, PHONE);
    expect(stored.body).toMatchObject({ name: "Jo", attributes: { order_id: "ORD-1", vip: false } });
    const merged = await put(fx.apiKey, PHONE, { attributes: { vip: true } });
    expect(merged.body).toMatchObject({ name: "Jo", attributes: { order_id: "ORD-1", vip: true } });
  });

  it("another workspace's contact is 404 and a PUT there creates a separate contact", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    await put(theirs.key, PHONE, { name: "Theirs", attributes: { secret: "x" } });
    const foreign = await get(mine.key, PHONE);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain("Theirs");
    const own = await put(mine.key, PHONE, { name: "Mine" });
    expect(own.status).toBe(201);
    expect(own.body.attributes).toEqual({});
    expect((await get(theirs.key, PHONE)).body).toMatchObject({ name: "Theirs", attributes: { secret: "x" } });
  });

  it("422 for a phone that is not E.164, unknown fields, built-in or malformed attribute names and bad values; nothing stored", async () => {
    const account = await createApiAccount();
    for (const phone of ["4155552671", "+1415555", "+1%20415", "abc"]) {
      const response = await get(account.key, phone);
      expect(response.status, phone).toBe(422);
      expect(response.body.errors).toEqual([expect.objectContaining({ path: "phone", code: "invalid_phone" })]);
    }
    const bad = await put(account.key, PHONE, { nickname: "M", attributes: { "bad key": 1, nested: { a: 1 } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.path).sort()).toEqual(["attributes.bad key", "attributes.nested", "nickname"]);
    const builtIn = await put(account.key, PHONE, { attributes: { name: "x", phoneNumber: "+1" } });
    expect(builtIn.status).toBe(422);
    expect(builtIn.body.errors?.map((e) => e.path)).toEqual(["attributes.name", "attributes.phoneNumber"]);
    expect((await get(account.key, PHONE)).status).toBe(404);
    expect((await put(account.key, PHONE, { name: "" })).status).toBe(422);
    const unstorable = await put(account.key, PHONE, { name: "Ma\u0000ria", attributes: { note: "\ud800" } });
    expect(unstorable.status).toBe(422);
    expect(unstorable.body.errors?.map((e) => e.path)).toEqual(["name", "attributes.note"]);
    expect((await callRoute(PUT, "PUT", `/api/v1/contacts/${PHONE}`, { key: account.key, params: { idOrPhone: PHONE }, body: "[" })).status).toBe(400);
  });

  it("401 without a key, 405 with Allow for other methods", async () => {
    expect((await callRoute(GET, "GET", `/api/v1/contacts/${PHONE}`, { params: { idOrPhone: PHONE } })).status).toBe(401);
    const wrong = await callRoute(POST, "POST", `/api/v1/contacts/${PHONE}`, { params: { idOrPhone: PHONE } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, PUT, PATCH, DELETE");
  });
});
