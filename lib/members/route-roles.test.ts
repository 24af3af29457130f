// Every mutating route of the app, called as each role of a workspace: the routes that manage the
// workspace (keys, sender, webhooks, alerts, members) refuse a member with 403 `admin_required` and
// nothing else ever does; owners and admins are never refused for their role. Route files are
// found on disk, so a new route is checked without being listed here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { NextRouteHandler } from "@/lib/http/route";
import { callRoute, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestAccount } from "@/lib/testing/factories";
import { acceptInvitation, inviteMember } from "./service";
import { getDb } from "@/db";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import type { Mail } from "@/lib/mail";

const API = path.join(process.cwd(), "app", "api");
/** Outside any workspace session: sign-in and sign-up, platform callbacks, the key-only trigger. */
const NOT_SESSION_ROUTES = [/^auth\//, /^cron\//, /^health\//, /^webhooks\//, /^sandbox\//, /^campaigns\/\[id\]\/trigger/];
/** Leaving is every role's own business (tested in members.test.ts); calling it here would end the session. */
const SKIPPED = [/^members\/leave\//];
const MANAGES_WORKSPACE = [/^keys\//, /^sender\//, /^webhook-endpoints\//, /^alerts\/settings\//, /^members\/(invitations|\[userId\])/];

function routeFiles(dir = API): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const relative = (file: string) => path.relative(API, file).replaceAll(path.sep, "/");
const params = (route: string) => Object.fromEntries([...route.matchAll(/\[([^\]]+)\]/g)].map(([, name]) => [name!, `none_${name}`]));

async function memberOf(ownerWorkspace: string, ownerId: string, role: "admin" | "member") {
  const user = await createTestAccount();
  const mails: Mail[] = [];
  await inviteMember(await getDb(), ownerWorkspace, { ...SYSTEM_ACTOR, userId: ownerId }, { email: user.email, role }, { baseUrl: "http://x", mail: async (m) => void mails.push(m) });
  await new Promise((resolve) => setImmediate(resolve));
  const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mails[0]!.text)![1]!;
  await acceptInvitation(await getDb(), token, user, SYSTEM_ACTOR);
  return user;
}

describe("roles on every mutating route", () => {
  it("refuse a member only where the workspace is managed, and never an owner or an admin", async () => {
    const owner = await createTestAccount();
    const admin = await memberOf(owner.workspaceId, owner.id, "admin");
    const member = await memberOf(owner.workspaceId, owner.id, "member");
    const files = routeFiles()
      .map((file) => ({ file, route: relative(file) }))
      .filter(({ route }) => !NOT_SESSION_ROUTES.some((p) => p.test(route)) && !SKIPPED.some((p) => p.test(route)));
    expect(files.length).toBeGreaterThan(50);
    let checked = 0;
    for (const { file, route } of files) {
      const handlers = (await import(file)) as Record<string, NextRouteHandler>;
      const manages = MANAGES_WORKSPACE.some((p) => p.test(route));
      for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
        const handler = handlers[method];
        if (!handler) continue;
        for (const [user, role] of [[member, "member"], [admin, "admin"], [owner, "owner"]] as const) {
          const cookie = await sessionCookie({ userId: user.id, workspaceId: owner.workspaceId, email: user.email });
          const result = await callRoute<{ type?: string }>(handler, method, `/api/${route}`, { cookie, headers: SAME_ORIGIN, params: params(route), body: {} });
          if (result.status === 405) continue;
          const refusedForRole = result.status === 403 && String(result.body?.type ?? "").endsWith("#error-admin_required");
          expect(refusedForRole, `${role} ${method} /api/${route} → ${result.status} ${result.body?.type ?? ""}`).toBe(role === "member" && manages);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
