import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as ACCEPT } from "@/app/api/invitations/[token]/accept/route";
import { GET as TEAM } from "@/app/api/members/route";
import { POST as INVITE } from "@/app/api/members/invitations/route";
import { DELETE as REVOKE } from "@/app/api/members/invitations/[id]/route";
import { POST as RENEW_LINK } from "@/app/api/members/invitations/[id]/link/route";
import { DELETE as REMOVE, PATCH as CHANGE_ROLE } from "@/app/api/members/[userId]/route";
import { POST as LEAVE } from "@/app/api/members/leave/route";
import { POST as SWITCH } from "@/app/api/workspaces/switch/route";
import { GET as LIST_KEYS, POST as CREATE_KEY } from "@/app/api/keys/route";
import { DELETE as DELETE_KEY } from "@/app/api/keys/[id]/route";
import { GET as GET_SENDER, PUT as PUT_SENDER } from "@/app/api/sender/route";
import { POST as TEST_SENDER } from "@/app/api/sender/test/route";
import { GET as LIST_ENDPOINTS, POST as CREATE_ENDPOINT } from "@/app/api/webhook-endpoints/route";
import { DELETE as DELETE_ENDPOINT, PATCH as PATCH_ENDPOINT } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as ROLL_SECRET } from "@/app/api/webhook-endpoints/[id]/roll-secret/route";
import { POST as TEST_ENDPOINT } from "@/app/api/webhook-endpoints/[id]/test/route";
import { PUT as PUT_ALERTS } from "@/app/api/alerts/settings/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PATCH as RENAME_WORKSPACE } from "@/app/api/workspace/route";
import { getDb } from "@/db";
import { auditEvents, invitations, memberships, type MemberRole } from "@/db/schema";
import type { Mail } from "@/lib/mail";
import { callRoute, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestAccount } from "@/lib/testing/factories";
import type { NextRouteHandler } from "@/lib/routing/route";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { inviteMember } from "./service";

type Account = Awaited<ReturnType<typeof createTestAccount>>;

/** An owner's workspace with an admin and a member who joined by invitation; each with a session cookie for it. */
async function team() {
  const owner = await createTestAccount({ name: "Olivia Owner" });
  const join = async (role: "admin" | "member", name: string) => {
    const user = await createTestAccount({ name });
    const token = await invite(owner, user.email, role);
    const accepted = await callRoute<{ workspaceId: string }>(ACCEPT, "POST", "/x", { cookie: await cookieOf(user), headers: SAME_ORIGIN, params: { token } });
    expect(accepted.status).toBe(200);
    return user;
  };
  const admin = await join("admin", "Adam Admin");
  const member = await join("member", "Mia Member");
  return {
    owner,
    admin,
    member,
    as: async (user: Account) => ({ cookie: await cookieOf(user, owner.workspaceId), headers: SAME_ORIGIN }),
  };
}

const cookieOf = (user: Account, workspaceId = user.workspaceId) => sessionCookie({ userId: user.id, workspaceId, email: user.email });

/** Invites through the service with a mail transport that keeps the link; returns the token. */
async function invite(owner: Account, email: string, role: "admin" | "member" = "member"): Promise<string> {
  const mails: Mail[] = [];
  await inviteMember(await getDb(), owner.workspaceId, { ...SYSTEM_ACTOR, userId: owner.id }, { email, role }, { baseUrl: "http://app.test", mail: async (m) => void mails.push(m) });
  await new Promise((resolve) => setImmediate(resolve));
  const link = /http:\/\/app\.test\/invite\/([A-Za-z0-9_-]+)/.exec(mails[0]!.text)?.[1];
  expect(mails[0]).toMatchObject({ to: email.toLowerCase() });
  return link!;
}

describe("invitations", () => {
  it("join a workspace once, for the invited address only, within 7 days", async () => {
    const owner = await createTestAccount();
    const invitee = await createTestAccount();
    const stranger = await createTestAccount();
    const token = await invite(owner, invitee.email.toUpperCase());

    const wrong = await callRoute<{ type: string }>(ACCEPT, "POST", "/x", { cookie: await cookieOf(stranger), headers: SAME_ORIGIN, params: { token } });
    expect(wrong.status).toBe(403);
    const accepted = await callRoute<{ workspaceId: string }>(ACCEPT, "POST", "/x", { cookie: await cookieOf(invitee), headers: SAME_ORIGIN, params: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.workspaceId).toBe(owner.workspaceId);
    // The response moves the session to the workspace joined.
    const moved = accepted.headers.get("set-cookie")!.split(";")[0]!;
    const teamView = await callRoute<{ members: { email: string; role: MemberRole }[] }>(TEAM, "GET", "/x", { cookie: moved, headers: SAME_ORIGIN });
    expect(teamView.body.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      [invitee.email, "member"],
    ]);
    const again = await callRoute(ACCEPT, "POST", "/x", { cookie: await cookieOf(invitee), headers: SAME_ORIGIN, params: { token } });
    expect(again.status).toBe(410);

    const late = await createTestAccount();
    const lateToken = await invite(owner, late.email);
    await (await getDb()).update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.email, late.email));
    expect((await callRoute(ACCEPT, "POST", "/x", { cookie: await cookieOf(late), headers: SAME_ORIGIN, params: { token: lateToken } })).status).toBe(410);
    expect((await callRoute(ACCEPT, "POST", "/x", { cookie: await cookieOf(late), headers: SAME_ORIGIN, params: { token: "not-a-token" } })).status).toBe(404);
  });

  it("are listed, replaced by a new invitation to the same address, and revoked", async () => {
    const { owner, as } = await team();
    const first = await callRoute<{ id: string }>(INVITE, "POST", "/x", { ...(await as(owner)), body: { email: "new@example.test" } });
    expect(first.status).toBe(201);
    const second = await callRoute<{ id: string }>(INVITE, "POST", "/x", { ...(await as(owner)), body: { email: "NEW@example.test", role: "admin" } });
    const listed = await callRoute<{ invitations: { id: string; email: string; role: string }[] }>(TEAM, "GET", "/x", await as(owner));
    expect(listed.body.invitations).toEqual([expect.objectContaining({ id: second.body.id, email: "new@example.test", role: "admin" })]);
    expect((await callRoute(REVOKE, "DELETE", "/x", { ...(await as(owner)), params: { id: second.body.id } })).status).toBe(204);
    expect((await callRoute<{ invitations: unknown[] }>(TEAM, "GET", "/x", await as(owner))).body.invitations).toHaveLength(0);
    const member = await callRoute<{ type: string }>(INVITE, "POST", "/x", { ...(await as(owner)), body: { email: owner.email } });
    expect(member.status).toBe(409);
    const bad = await callRoute(INVITE, "POST", "/x", { ...(await as(owner)), body: { email: "not an email" } });
    expect(bad.status).toBe(422);
  });
});

describe("invite links to copy", () => {
  it("come back with the invitation, with a plain notice when no mail transport delivers", async () => {
    const { owner, as } = await team();
    const saved = process.env.MAIL_TRANSPORT;
    process.env.MAIL_TRANSPORT = "none";
    try {
      const created = await callRoute<{ id: string; link: string; mail: { sent: boolean; notice: string | null } }>(INVITE, "POST", "/x", {
        ...(await as(owner)),
        body: { email: "copy@example.test" },
      });
      expect(created.status).toBe(201);
      expect(created.body.link).toMatch(/^http:\/\/localhost(:\d+)?\/invite\/[A-Za-z0-9_-]{43}$/);
      expect(created.body.mail.sent).toBe(false);
      expect(created.body.mail.notice).toMatch(/^No email is configured \(MAIL_TRANSPORT is not set\)\. Copy the link and send it yourself\.$/);
      // Only the hash is stored: the token is nowhere in the database.
      const token = created.body.link.split("/invite/")[1]!;
      const [row] = await (await getDb()).select().from(invitations).where(eq(invitations.id, created.body.id));
      expect(JSON.stringify(row)).not.toContain(token);
    } finally {
      if (saved === undefined) delete process.env.MAIL_TRANSPORT;
      else process.env.MAIL_TRANSPORT = saved;
    }
  });

  it("are renewed when copied again: the new link joins, the earlier one no longer does; another workspace's invitation is 404", async () => {
    const { owner, admin, as } = await team();
    const invitee = await createTestAccount();
    const first = await invite(owner, invitee.email);
    const [open] = await (await getDb()).select().from(invitations).where(and(eq(invitations.email, invitee.email.toLowerCase()), eq(invitations.workspaceId, owner.workspaceId)));
    const renewed = await callRoute<{ link: string; expiresAt: string }>(RENEW_LINK, "POST", "/x", { ...(await as(admin)), params: { id: open!.id } });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get("cache-control")).toBe("no-store");
    const second = renewed.body.link.split("/invite/")[1]!;
    expect(second).not.toBe(first);
    expect((await callRoute(ACCEPT, "POST", "/x", { cookie: await cookieOf(invitee), headers: SAME_ORIGIN, params: { token: first } })).status).toBe(404);
    expect((await callRoute(ACCEPT, "POST", "/x", { cookie: await cookieOf(invitee), headers: SAME_ORIGIN, params: { token: second } })).status).toBe(200);
    // Accepted: nothing left to renew.
    expect((await callRoute(RENEW_LINK, "POST", "/x", { ...(await as(owner)), params: { id: open!.id } })).status).toBe(404);

    const stranger = await createTestAccount();
    await invite(stranger, "elsewhere@example.test");
    const [theirs] = await (await getDb()).select().from(invitations).where(eq(invitations.workspaceId, stranger.workspaceId));
    expect((await callRoute(RENEW_LINK, "POST", "/x", { ...(await as(owner)), params: { id: theirs!.id } })).status).toBe(404);
    const audit = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.workspaceId, owner.workspaceId), eq(auditEvents.action, "member.invitation_link_renewed")));
    expect(audit).toHaveLength(1);
  });
});

describe("roles on every mutating route", () => {
  it("let owners and admins manage keys, the sender, webhooks, alerts and members; a member gets 403 on each, and builds campaigns", async () => {
    const t = await team();
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
    const endpoint = await callRoute<{ endpoint: { id: string } }>(CREATE_ENDPOINT, "POST", "/x", { ...(await t.as(t.owner)), body: { url: "http://127.0.0.1:9/hook", events: ["message.sent"] } });
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    const endpointId = endpoint.body.endpoint.id;
    const cases: [string, NextRouteHandler, string, Record<string, string>, unknown][] = [
      ["list keys", LIST_KEYS, "GET", {}, undefined],
      ["create a key", CREATE_KEY, "POST", {}, { name: "Role test" }],
      ["delete a key", DELETE_KEY, "DELETE", { id: "key_none" }, undefined],
      ["read the sender", GET_SENDER, "GET", {}, undefined],
      ["change the sender", PUT_SENDER, "PUT", {}, { provider: "sandbox" }],
      ["test the sender", TEST_SENDER, "POST", {}, {}],
      ["list webhook endpoints", LIST_ENDPOINTS, "GET", {}, undefined],
      ["add a webhook endpoint", CREATE_ENDPOINT, "POST", {}, { url: "https://example.com/hook", events: ["message.sent"] }],
      ["change a webhook endpoint", PATCH_ENDPOINT, "PATCH", { id: endpointId }, { description: "x" }],
      ["roll a signing secret", ROLL_SECRET, "POST", { id: endpointId }, undefined],
      ["send a test event", TEST_ENDPOINT, "POST", { id: endpointId }, undefined],
      ["delete a webhook endpoint", DELETE_ENDPOINT, "DELETE", { id: "whe_none" }, undefined],
      ["change alert settings", PUT_ALERTS, "PUT", {}, { failureRatePercent: 20, minMessages: 20, emailOwners: true }],
      ["invite", INVITE, "POST", {}, { email: "someone@example.test" }],
      ["withdraw an invitation", REVOKE, "DELETE", { id: "inv_none" }, undefined],
      ["copy an invite link", RENEW_LINK, "POST", { id: "inv_none" }, undefined],
      ["change a role", CHANGE_ROLE, "PATCH", { userId: t.admin.id }, { role: "member" }],
      ["remove a member", REMOVE, "DELETE", { userId: "usr_none" }, undefined],
    ];
    for (const [what, handler, method, params, body] of cases) {
      const asMember = await callRoute<{ type: string }>(handler, method, "/x", { ...(await t.as(t.member)), params, ...(body === undefined ? {} : { body }) });
      expect(asMember.status, `member: ${what}`).toBe(403);
      expect(asMember.body.type, what).toMatch(/#error-admin_required$/);
    }
    for (const user of [t.owner, t.admin]) {
      for (const [what, handler, method, params, body] of cases.filter(([what]) => what !== "change a role")) {
        const result = await callRoute(handler, method, "/x", { ...(await t.as(user)), params, ...(body === undefined ? {} : { body }) });
        expect(result.status, `${user.name}: ${what}`).not.toBe(403);
      }
    }
    // What members are for: building campaigns (the /api/v1 tree).
    expect((await callRoute(CREATE_CAMPAIGN, "POST", "/x", { ...(await t.as(t.member)), body: { name: "Built by a member" } })).status).toBe(201);
    // Renaming the workspace stays the owner's.
    expect((await callRoute(RENAME_WORKSPACE, "PATCH", "/x", { ...(await t.as(t.admin)), body: { name: "Renamed" } })).status).toBe(403);
  });

  it("change roles, never the owner's; removing a member ends their session at once; the owner cannot be removed or leave", async () => {
    const t = await team();
    const promoted = await callRoute<{ role: string }>(CHANGE_ROLE, "PATCH", "/x", { ...(await t.as(t.owner)), params: { userId: t.member.id }, body: { role: "admin" } });
    expect(promoted.body.role).toBe("admin");
    expect((await callRoute(CHANGE_ROLE, "PATCH", "/x", { ...(await t.as(t.admin)), params: { userId: t.owner.id }, body: { role: "member" } })).status).toBe(409);
    expect((await callRoute(REMOVE, "DELETE", "/x", { ...(await t.as(t.admin)), params: { userId: t.owner.id } })).status).toBe(409);
    expect((await callRoute(LEAVE, "POST", "/x", await t.as(t.owner))).status).toBe(409);

    const memberSession = await t.as(t.member);
    expect((await callRoute(TEAM, "GET", "/x", memberSession)).status).toBe(200);
    expect((await callRoute(REMOVE, "DELETE", "/x", { ...(await t.as(t.admin)), params: { userId: t.member.id } })).status).toBe(204);
    expect((await callRoute(TEAM, "GET", "/x", memberSession)).status).toBe(401);
    const audit = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.workspaceId, t.owner.workspaceId), eq(auditEvents.action, "member.removed")));
    expect(audit.map((a) => a.targetId)).toEqual([t.member.id]);
  });

  it("let a member leave to their own workspace, and switch only between workspaces they belong to", async () => {
    const t = await team();
    const stranger = await createTestAccount();
    const switched = await callRoute<{ workspaceId: string }>(SWITCH, "POST", "/x", { ...(await t.as(t.admin)), body: { workspaceId: t.admin.workspaceId } });
    expect(switched.status).toBe(200);
    const own = switched.headers.get("set-cookie")!.split(";")[0]!;
    const ownTeam = await callRoute<{ members: { email: string }[] }>(TEAM, "GET", "/x", { cookie: own, headers: SAME_ORIGIN });
    expect(ownTeam.body.members.map((m) => m.email)).toEqual([t.admin.email]);
    expect((await callRoute(SWITCH, "POST", "/x", { ...(await t.as(t.admin)), body: { workspaceId: stranger.workspaceId } })).status).toBe(404);

    const left = await callRoute<{ workspaceId: string }>(LEAVE, "POST", "/x", await t.as(t.member));
    expect(left.body.workspaceId).toBe(t.member.workspaceId);
    const rows = await (await getDb()).select().from(memberships).where(eq(memberships.userId, t.member.id));
    expect(rows.map((r) => r.workspaceId)).toEqual([t.member.workspaceId]);
    // Their only workspace now: leaving it too is refused.
    expect((await callRoute(LEAVE, "POST", "/x", { cookie: await cookieOf(t.member), headers: SAME_ORIGIN })).status).toBe(409);
  });
});
