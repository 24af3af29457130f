import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, workspaces } from "@/db/schema";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestMember } from "@/lib/testing/factories";
import { GET, POST, PUT } from "./route";

const URL = "/api/workspace/inbox-settings";

async function account() {
  const owner = await createApiAccount();
  return { ...owner, cookie: await sessionCookie(owner) };
}

const stored = async (workspaceId: string) => {
  const [row] = await (await getDb())
    .select({ replyAttributionHours: workspaces.replyAttributionHours, inboxMembersSeeAll: workspaces.inboxMembersSeeAll })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row!;
};

describe("workspace inbox settings", () => {
  it("start at 72 hours and members seeing everything, are changed by an owner or an admin, and each change is audited with what changed", async () => {
    const owner = await account();
    expect(await callRoute(GET, "GET", URL, { cookie: owner.cookie })).toMatchObject({ status: 200, body: { replyAttributionHours: 72, inboxMembersSeeAll: true, sandboxAudienceReplies: false } });
    const put = (cookie: string, body: unknown) => callRoute(PUT, "PUT", URL, { cookie, headers: SAME_ORIGIN, body });
    expect(await put(owner.cookie, { replyAttributionHours: 24, inboxMembersSeeAll: true })).toMatchObject({ status: 200, body: { replyAttributionHours: 24, inboxMembersSeeAll: true } });
    // The same settings again add no audit row.
    await put(owner.cookie, { replyAttributionHours: 24, inboxMembersSeeAll: true });
    const admin = await createTestMember(owner.workspaceId, owner.userId, "admin");
    const adminCookie = await sessionCookie({ userId: admin.id, workspaceId: owner.workspaceId });
    expect(await put(adminCookie, { replyAttributionHours: 168, inboxMembersSeeAll: false })).toMatchObject({ status: 200 });
    expect(await stored(owner.workspaceId)).toEqual({ replyAttributionHours: 168, inboxMembersSeeAll: false });
    const audit = await (await getDb())
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, owner.workspaceId), eq(auditEvents.action, "workspace.inbox_settings_changed")))
      .orderBy(auditEvents.createdAt);
    expect(audit.map((row) => [row.actorUserId, row.metadata])).toEqual([
      [owner.userId, { from: { replyAttributionHours: 72 }, to: { replyAttributionHours: 24 } }],
      [admin.id, { from: { replyAttributionHours: 24, inboxMembersSeeAll: true }, to: { replyAttributionHours: 168, inboxMembersSeeAll: false } }],
    ]);
  });

  it("the sandbox's answering audience is off until asked for, and a save that leaves it out keeps it", async () => {
    const owner = await account();
    const put = (body: unknown) => callRoute(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body });
    expect(await put({ replyAttributionHours: 72, inboxMembersSeeAll: true, sandboxAudienceReplies: true })).toMatchObject({ status: 200, body: { sandboxAudienceReplies: true } });
    expect(await put({ replyAttributionHours: 48, inboxMembersSeeAll: true })).toMatchObject({ status: 200, body: { replyAttributionHours: 48, sandboxAudienceReplies: true } });
    expect((await put({ replyAttributionHours: 48, inboxMembersSeeAll: true, sandboxAudienceReplies: "yes" })).status).toBe(422);
  });

  it("a member reads them but cannot change them; bad values, unknown fields and API keys change nothing", async () => {
    const owner = await account();
    const member = await createTestMember(owner.workspaceId, owner.userId, "member");
    const memberCookie = await sessionCookie({ userId: member.id, workspaceId: owner.workspaceId });
    expect(await callRoute(GET, "GET", URL, { cookie: memberCookie })).toMatchObject({ status: 200, body: { replyAttributionHours: 72 } });
    const refused = await callRoute<{ type: string }>(PUT, "PUT", URL, { cookie: memberCookie, headers: SAME_ORIGIN, body: { replyAttributionHours: 24, inboxMembersSeeAll: false } });
    expect(refused.status).toBe(403);
    expect(refused.body.type).toMatch(/#error-admin_required$/);
    for (const [body, path] of [
      [{ replyAttributionHours: 0, inboxMembersSeeAll: true }, "replyAttributionHours"],
      [{ replyAttributionHours: 169, inboxMembersSeeAll: true }, "replyAttributionHours"],
      [{ replyAttributionHours: 1.5, inboxMembersSeeAll: true }, "replyAttributionHours"],
      [{ replyAttributionHours: "24", inboxMembersSeeAll: true }, "replyAttributionHours"],
      [{ replyAttributionHours: 24, inboxMembersSeeAll: "yes" }, "inboxMembersSeeAll"],
      [{ replyAttributionHours: 24 }, "inboxMembersSeeAll"],
      [{ replyAttributionHours: 24, inboxMembersSeeAll: true, colour: "red" }, "colour"],
    ] as const) {
      const response = await callRoute<{ errors: { path: string }[] }>(PUT, "PUT", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors.map((e) => e.path)).toContain(path);
    }
    expect((await callRoute(PUT, "PUT", URL, { key: owner.key, body: { replyAttributionHours: 24, inboxMembersSeeAll: true } })).status).toBe(401);
    expect(await stored(owner.workspaceId)).toEqual({ replyAttributionHours: 72, inboxMembersSeeAll: true });
    expect((await callRoute(POST, "POST", URL, { cookie: owner.cookie, headers: SAME_ORIGIN, body: {} })).status).toBe(405);
  });
});
