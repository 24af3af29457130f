import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, workspaces } from "@/db/schema";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { GET, POST, PUT } from "./route";

const URL = "/api/workspace/opt-out-keywords";

async function account() {
  const owner = await createApiAccount();
  return { ...owner, cookie: await sessionCookie(owner) };
}

const stored = async (workspaceId: string) => {
  const db = await getDb();
  const [row] = await db.select({ keywords: workspaces.optOutKeywords }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return row!.keywords;
};

describe("opt-out keywords setting", () => {
  it("reads and replaces the workspace's keywords, normalised, without built-ins or repeats, and audits the change", async () => {
    const owner = await account();
    const empty = await callRoute(GET, "GET", URL, { cookie: owner.cookie });
    expect(empty).toMatchObject({ status: 200, body: { keywords: [], builtIn: ["STOP", "UNSUBSCRIBE"], optIn: ["START"] } });

    const saved = await callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { keywords: [" arret ", "No  more", "stop", "ARRET"] } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ keywords: ["ARRET", "NO MORE"] });
    expect(await stored(owner.workspaceId)).toEqual(["ARRET", "NO MORE"]);
    expect((await callRoute(GET, "GET", URL, { cookie: owner.cookie })).body).toMatchObject({ keywords: ["ARRET", "NO MORE"] });

    const db = await getDb();
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.workspaceId, owner.workspaceId));
    expect(audit.find((e) => e.action === "workspace.opt_out_keywords_changed")).toMatchObject({ actorUserId: owner.userId, metadata: { keywords: ["ARRET", "NO MORE"], previous: [] } });
  });

  it("refuses START, empty, odd characters, too many and unknown members with per-field errors, changing nothing", async () => {
    const owner = await account();
    await callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: { keywords: ["ARRET"] } });
    const cases: [unknown, string][] = [
      [{ keywords: ["ok", "start"] }, "keywords[1]"],
      [{ keywords: ["  "] }, "keywords[0]"],
      [{ keywords: ["stop!"] }, "keywords[0]"],
      [{ keywords: ["x".repeat(41)] }, "keywords[0]"],
      [{ keywords: Array.from({ length: 21 }, (_, i) => `K${i}`) }, "keywords"],
      [{ keywords: "ARRET" }, "keywords"],
      [{ keywords: [], extra: true }, "extra"],
      [{}, "keywords"],
    ];
    for (const [body, path] of cases) {
      const response = await callRoute<{ code: string; errors: { path: string }[] }>(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors.map((e) => e.path)).toContain(path);
    }
    expect(await stored(owner.workspaceId)).toEqual(["ARRET"]);
  });

  it("is for the signed-in web app only: no key, no cross-site write, one workspace at a time", async () => {
    const owner = await account();
    const other = await account();
    expect((await callRoute(GET, "GET", URL, { key: owner.key })).status).toBe(401);
    expect((await callRoute(PUT, "PUT", URL, { key: owner.key, body: { keywords: ["ARRET"] } })).status).toBe(401);
    expect((await callRoute(GET, "GET", URL)).status).toBe(401);
    const crossSite = await callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, body: { keywords: ["ARRET"] } });
    expect(crossSite.status).toBe(403);
    expect(await stored(owner.workspaceId)).toEqual([]);

    await callRoute(PUT, "PUT", URL, { cookie: other.cookie, headers: SAME_ORIGIN, body: { keywords: ["HALT"] } });
    expect(await stored(owner.workspaceId)).toEqual([]);
    expect((await callRoute(POST, "POST", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: {} })).status).toBe(405);
  });
});
