import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, workspaces } from "@/db/schema";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { GET, POST, PUT } from "./route";

const URL = "/api/workspace/default-country";

async function account() {
  const owner = await createApiAccount();
  return { ...owner, cookie: await sessionCookie(owner) };
}

const stored = async (workspaceId: string) => {
  const [row] = await (await getDb()).select({ country: workspaces.defaultCountry }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return row!.country;
};

describe("workspace default country", () => {
  it("starts with none, is set and cleared by a member of the workspace, and audits each change", async () => {
    const owner = await account();
    expect(await callRoute(GET, "GET", URL, { cookie: owner.cookie })).toMatchObject({ status: 200, body: { defaultCountry: null } });
    expect(await callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { defaultCountry: "ES" } })).toMatchObject({ status: 200, body: { defaultCountry: "ES" } });
    expect(await stored(owner.workspaceId)).toBe("ES");
    expect((await callRoute(GET, "GET", URL, { cookie: owner.cookie })).body).toEqual({ defaultCountry: "ES" });
    // The same country again adds no audit row; clearing it does.
    await callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { defaultCountry: "ES" } });
    expect(await callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { defaultCountry: null } })).toMatchObject({ status: 200, body: { defaultCountry: null } });
    expect(await stored(owner.workspaceId)).toBeNull();
    const audit = await (await getDb())
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, owner.workspaceId), eq(auditEvents.action, "workspace.default_country_changed")))
      .orderBy(auditEvents.createdAt);
    expect(audit.map((row) => row.metadata)).toEqual([
      { from: null, to: "ES" },
      { from: "ES", to: null },
    ]);
  });

  it("refuses an unknown or lower-case country, a missing one and unknown fields, changing nothing; web app only", async () => {
    const owner = await account();
    const other = await account();
    await callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { defaultCountry: "PT" } });
    for (const [body, path] of [
      [{ defaultCountry: "XX" }, "defaultCountry"],
      [{ defaultCountry: "es" }, "defaultCountry"],
      [{}, "defaultCountry"],
      [{ defaultCountry: "ES", locale: "es" }, "locale"],
    ] as const) {
      const response = await callRoute<{ errors: { path: string }[] }>(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors.map((e) => e.path)).toContain(path);
    }
    expect(await stored(owner.workspaceId)).toBe("PT");
    expect((await callRoute(PUT, "PUT", URL, { key: owner.key, body: { defaultCountry: "ES" } })).status).toBe(401);
    await callRoute(PUT, "PUT", URL, { cookie: other.cookie, headers: SAME_ORIGIN, body: { defaultCountry: "GB" } });
    expect(await stored(owner.workspaceId)).toBe("PT");
    expect(await stored(other.workspaceId)).toBe("GB");
    expect((await callRoute(POST, "POST", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: {} })).status).toBe(405);
  });
});
