import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, memberships, workspaces } from "@/db/schema";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestAccount } from "@/lib/testing/factories";
import { listTemplates } from "@/lib/templates/service";
import { GET, PATCH, POST } from "./route";

const URL = "/api/workspace";

async function account() {
  const owner = await createApiAccount();
  return { ...owner, cookie: await sessionCookie(owner) };
}

const storedName = async (workspaceId: string) => {
  const [row] = await (await getDb()).select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return row!.name;
};

describe("workspace settings", () => {
  it("lets the owner rename the workspace, trimmed, and audits the old and new name", async () => {
    const owner = await account();
    const before = await storedName(owner.workspaceId);
    expect((await callRoute(GET, "GET", URL, { cookie: owner.cookie })).body).toEqual({ id: owner.workspaceId, name: before });
    const renamed = await callRoute(PATCH, "PATCH", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { name: "  Acme Shoes  " } });
    expect(renamed).toMatchObject({ status: 200, body: { id: owner.workspaceId, name: "Acme Shoes" } });
    expect(await storedName(owner.workspaceId)).toBe("Acme Shoes");
    // The same name again changes nothing and adds no audit row.
    await callRoute(PATCH, "PATCH", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { name: "Acme Shoes" } });
    const audit = await (await getDb())
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, owner.workspaceId), eq(auditEvents.action, "workspace.renamed")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: owner.userId, targetId: owner.workspaceId, metadata: { from: before, to: "Acme Shoes" } });
  });

  it("refuses an empty or too long name and unknown fields with field errors, changing nothing", async () => {
    const owner = await account();
    const before = await storedName(owner.workspaceId);
    for (const [body, path] of [
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{}, "name"],
      [{ name: "Fine", plan: "pro" }, "plan"],
    ] as const) {
      const response = await callRoute<{ errors: { path: string }[] }>(PATCH, "PATCH", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors.map((e) => e.path)).toContain(path);
    }
    expect(await storedName(owner.workspaceId)).toBe(before);
  });

  it("is for the owner in the web app: a member gets 403, a key 401, another workspace is untouched", async () => {
    const owner = await account();
    const other = await account();
    const before = await storedName(owner.workspaceId);
    const member = await createTestAccount();
    await (await getDb()).insert(memberships).values({ workspaceId: owner.workspaceId, userId: member.id, role: "member" });
    const memberCookie = await sessionCookie({ userId: member.id, workspaceId: owner.workspaceId, email: member.email, name: member.name });
    const refused = await callRoute<{ type: string }>(PATCH, "PATCH", URL, { cookie: memberCookie, headers: SAME_ORIGIN, body: { name: "Mine now" } });
    expect(refused).toMatchObject({ status: 403, body: { type: "/docs/api#error-owner_required" } });
    expect((await callRoute(PATCH, "PATCH", URL, { key: owner.key, body: { name: "Via key" } })).status).toBe(401);
    const crossSite = await callRoute(PATCH, "PATCH", URL, { cookie: owner.cookie, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, body: { name: "Evil" } });
    expect(crossSite.status).toBe(403);
    await callRoute(PATCH, "PATCH", URL, { cookie: other.cookie, headers: SAME_ORIGIN, body: { name: "Other Co" } });
    expect(await storedName(owner.workspaceId)).toBe(before);
    expect(await storedName(other.workspaceId)).toBe("Other Co");
    expect((await callRoute(POST, "POST", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: {} })).status).toBe(405);
  });

  it("signs the sandbox demo templates with the workspace's name, also after a rename", async () => {
    const owner = await account();
    const db = await getDb();
    const footers = async () =>
      (await listTemplates(db, owner.workspaceId)).flatMap((template) =>
        (template.components as { type: string; text?: string }[]).filter((c) => c.type === "FOOTER").map((c) => c.text),
      );
    const name = await storedName(owner.workspaceId);
    expect(await footers()).toContain(name);
    expect(await footers()).not.toContain("Demo Shop");
    await callRoute(PATCH, "PATCH", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { name: "Acme Shoes" } });
    const after = await footers();
    expect(after).toContain("Acme Shoes");
    expect(after).not.toContain(name);
    // Footers that are not the shop's name stay as they are.
    expect(after).toContain("Reply STOP to opt out");
  });
});
