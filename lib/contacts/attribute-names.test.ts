// Attribute names JavaScript objects give a meaning of their own (`__proto__`, `constructor`,
// `prototype`) are refused with 422 wherever an attribute is named: a definition, a contact's
// attributes (create, update, bulk), a CSV import's mapping, a segment filter, a trigger mapping.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as attributesRoute from "@/app/api/v1/contact-attributes/route";
import * as oneContact from "@/app/api/v1/contacts/[idOrPhone]/route";
import * as bulkContacts from "@/app/api/v1/contacts/bulk/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as imports from "@/app/api/v1/imports/route";
import * as segments from "@/app/api/v1/segments/route";
import { getDb } from "@/db";
import { contactAttributes } from "@/db/schema";
import { triggerConfigSchema } from "@/lib/campaigns/schemas";
import type { NextRouteHandler } from "@/lib/routing/route";
import { callRoute, createApiAccount } from "@/lib/testing/api-factories";

const PHONE = "+14155552671";
type Problem = { type: string; errors?: { path: string; code: string; message: string }[] };

describe("reserved attribute names", () => {
  it("are refused with 422 by every API that names an attribute, and nothing is defined", async () => {
    const account = await createApiAccount();
    const call = (route: Partial<Record<"POST" | "PATCH", NextRouteHandler>>, method: "POST" | "PATCH", url: string, body: string, params?: Record<string, string>) =>
      callRoute<Problem>(route[method]!, method, url, { key: account.key, body, params });
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const refusals = [
        await call(attributesRoute, "POST", "/api/v1/contact-attributes", JSON.stringify({ key: name, type: "string" })),
        // Raw JSON: a `__proto__` member written in an object literal would be the prototype, not a key.
        await call(contacts, "POST", "/api/v1/contacts", `{"phone":"${PHONE}","attributes":{"${name}":"x"}}`),
        await call(bulkContacts, "POST", "/api/v1/contacts/bulk", `[{"phone":"${PHONE}","attributes":{"${name}":"x"}}]`),
        await call(
          imports,
          "POST",
          "/api/v1/imports",
          JSON.stringify({
            fileName: "a.csv",
            columns: [
              { index: 0, header: "phone", target: { type: "phone" } },
              { index: 1, header: "x", target: { type: "attribute", key: name, attributeType: "string" } },
            ],
          }),
        ),
        await call(segments, "POST", "/api/v1/segments", JSON.stringify({ name: `s ${name}`, filter: { match: "all", conditions: [{ field: "attribute", key: name, op: "is_set" }] } })),
      ];
      // A CSV sent without a mapping names its attributes by its header.
      const csv = await callRoute<Problem>(bulkContacts.POST, "POST", "/api/v1/contacts/bulk", { key: account.key, body: `phone,${name}\n${PHONE},x\n`, headers: { "content-type": "text/csv" } });
      refusals.push(csv);
      for (const [index, refusal] of refusals.entries()) {
        expect(refusal.status, `${name} #${index} ${JSON.stringify(refusal.body)}`).toBe(422);
        expect(refusal.body.type).toBe("/docs/api#error-validation_failed");
      }
      for (const [index, refusal] of refusals.entries()) expect(JSON.stringify(refusal.body.errors), `${name} #${index}`).toMatch(/reserved names/);
      expect(refusals[0]!.body.errors).toEqual([expect.objectContaining({ path: "key" })]);
      expect(triggerConfigSchema.safeParse({ phoneField: "phone", fields: [{ field: "x", attribute: name, type: "string", required: false }] }).success).toBe(false);
    }
    const created = await call(contacts, "POST", "/api/v1/contacts", JSON.stringify({ phone: PHONE, attributes: { city: "Lisbon" } }));
    expect(created.status).toBe(201);
    const patched = await call(oneContact, "PATCH", `/api/v1/contacts/${PHONE}`, `{"attributes":{"__proto__":{"polluted":true}}}`, { idOrPhone: PHONE });
    expect(patched.status).toBe(422);
    const defined = await (await getDb()).select({ key: contactAttributes.key }).from(contactAttributes).where(eq(contactAttributes.workspaceId, account.workspaceId));
    expect(defined.map((d) => d.key)).not.toEqual(expect.arrayContaining(["__proto__"]));
    expect(defined.map((d) => d.key).filter((key) => ["__proto__", "constructor", "prototype"].includes(key))).toEqual([]);
  });
});
