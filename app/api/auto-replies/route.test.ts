import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, senders } from "@/db/schema";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestMember } from "@/lib/testing/factories";
import { DELETE, PUT } from "./[id]/route";
import { GET, POST } from "./route";

async function owner() {
  const account = await createApiAccount();
  const [sender] = await (await getDb()).select().from(senders).where(eq(senders.workspaceId, account.workspaceId));
  return { ...account, senderId: sender!.id, cookie: await sessionCookie(account) };
}

describe("auto-replies routes", () => {
  it("an owner adds, changes and deletes one (audited); a member only reads; an API key is refused; bad input is 422", async () => {
    const admin = await owner();
    const body = { senderId: admin.senderId, keyword: "hours", reply: { type: "text", text: "9–18" } };
    const created = await callRoute<{ id: string; keyword: string }>(POST, "POST", "/api/auto-replies", { cookie: admin.cookie, headers: SAME_ORIGIN, body });
    expect(created).toMatchObject({ status: 201, body: { keyword: "HOURS", enabled: true } });

    const member = await createTestMember(admin.workspaceId, admin.userId, "member");
    const memberCookie = await sessionCookie({ userId: member.id, workspaceId: admin.workspaceId });
    expect((await callRoute(GET, "GET", "/api/auto-replies", { cookie: memberCookie })).body).toMatchObject({ data: [{ keyword: "HOURS" }] });
    expect((await callRoute(POST, "POST", "/api/auto-replies", { cookie: memberCookie, headers: SAME_ORIGIN, body: { ...body, keyword: "ADDRESS" } })).status).toBe(403);
    expect((await callRoute(GET, "GET", "/api/auto-replies", { key: admin.key })).status).toBe(401);

    const invalid = await callRoute<{ errors: { path: string }[] }>(POST, "POST", "/api/auto-replies", { cookie: admin.cookie, headers: SAME_ORIGIN, body: { ...body, keyword: "", reply: { type: "text", text: "" } } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e) => e.path).sort()).toEqual(["keyword", "reply.text"]);

    const url = `/api/auto-replies/${created.body.id}`;
    const changed = await callRoute(PUT, "PUT", url, { cookie: admin.cookie, headers: SAME_ORIGIN, body: { ...body, enabled: false }, params: { id: created.body.id } });
    expect(changed).toMatchObject({ status: 200, body: { enabled: false } });
    const stranger = await owner();
    expect((await callRoute(DELETE, "DELETE", url, { cookie: stranger.cookie, headers: SAME_ORIGIN, params: { id: created.body.id } })).status).toBe(404);
    expect((await callRoute(DELETE, "DELETE", url, { cookie: admin.cookie, headers: SAME_ORIGIN, params: { id: created.body.id } })).status).toBe(204);
    const actions = (await (await getDb()).select().from(auditEvents).where(eq(auditEvents.targetId, created.body.id))).map((e) => e.action).sort();
    expect(actions).toEqual(["auto_reply.created", "auto_reply.deleted", "auto_reply.updated"]);
  });
});
