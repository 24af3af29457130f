// Who may read and change senders through /api/v1/senders: every member and key reads; only owners
// and admins, signed in, change them.
import { describe, expect, it } from "vitest";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestMember } from "@/lib/testing/factories";
import { GET, POST } from "./route";
import { DELETE, PATCH } from "./[id]/route";

describe("/api/v1/senders", () => {
  it("lets a member and a key read, and only an owner or an admin add, rename or delete", async () => {
    const owner = await createApiAccount();
    const member = await createTestMember(owner.workspaceId, owner.userId, "member");
    const admin = await createTestMember(owner.workspaceId, owner.userId, "admin");
    const cookie = async (user: { id: string }) => sessionCookie({ userId: user.id, workspaceId: owner.workspaceId });
    const memberCookie = await cookie(member);
    const adminCookie = await cookie(admin);

    const byKey = await callRoute<{ data: { id: string; isDefault: boolean }[] }>(GET, "GET", "/api/v1/senders", { key: owner.key });
    expect(byKey.status).toBe(200);
    expect((await callRoute(GET, "GET", "/api/v1/senders", { cookie: memberCookie })).status).toBe(200);

    const body = { provider: "sandbox", name: "Test number" };
    const refused = await callRoute<{ type: string }>(POST, "POST", "/api/v1/senders", { cookie: memberCookie, headers: SAME_ORIGIN, body });
    expect(refused).toMatchObject({ status: 403, body: { type: "/docs/api#error-admin_required" } });
    expect((await callRoute(POST, "POST", "/api/v1/senders", { key: owner.key, body })).status).toBe(403);
    const created = await callRoute<{ id: string }>(POST, "POST", "/api/v1/senders", { cookie: adminCookie, headers: SAME_ORIGIN, body });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/v1/senders/${created.body.id}`);

    const params = { id: created.body.id };
    expect((await callRoute(PATCH, "PATCH", `/api/v1/senders/${params.id}`, { cookie: memberCookie, headers: SAME_ORIGIN, params, body: { name: "X" } })).status).toBe(403);
    expect((await callRoute(PATCH, "PATCH", `/api/v1/senders/${params.id}`, { cookie: adminCookie, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, params, body: { name: "X" } })).status).toBe(403);
    expect((await callRoute(DELETE, "DELETE", `/api/v1/senders/${params.id}`, { cookie: memberCookie, headers: SAME_ORIGIN, params })).status).toBe(403);
    expect((await callRoute(DELETE, "DELETE", `/api/v1/senders/${params.id}`, { cookie: adminCookie, headers: SAME_ORIGIN, params })).status).toBe(204);
  });
});
