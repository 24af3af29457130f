// Every route of the app, called as each role of a workspace: the routes that manage the workspace
// (keys, senders, webhooks, alerts, members, the inbox settings) and the reads of trigger request bodies refuse a member
// with 403 `admin_required`; dismissing the owners' alerts refuses everyone but an owner with 403
// `owner_required`; nothing else ever refuses a role. Route files are found on disk, so a new route
// is checked without being listed here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { NextRouteHandler } from "@/lib/routing/route";
import { callRoute, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestAccount, createTestMember } from "@/lib/testing/factories";

const API = path.join(process.cwd(), "app", "api");
/** Outside any workspace session: sign-in and sign-up, platform callbacks, the key-only trigger. */
const NOT_SESSION_ROUTES = [/^auth\//, /^cron\//, /^health\//, /^webhooks\//, /^sandbox\//, /^campaigns\/\[id\]\/trigger/];
/** Leaving is every role's own business (tested in members.test.ts); calling it here would end the session. */
const SKIPPED = [/^members\/leave\//];
const MANAGES_WORKSPACE = [/^keys\//, /^auto-replies\//, /^sender\//, /^workspace\/inbox-settings\//, /^v1\/senders\//, /^webhook-endpoints\//, /^alerts\/settings\//, /^members\/(invitations|\[userId\])/];
/** Reads of what holds customers' personal data beyond the message logs: trigger request bodies. */
const ADMINS_READ = [/^v1\/campaigns\/\[id\]\/requests\//];
/** The owners' own alerts. */
const OWNERS_ONLY = [/^alerts\/notices\/\[id\]\/dismiss\//];

function routeFiles(dir = API): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const relative = (file: string) => path.relative(API, file).replaceAll(path.sep, "/");
const params = (route: string) => Object.fromEntries([...route.matchAll(/\[([^\]]+)\]/g)].map(([, name]) => [name!, `none_${name}`]));

type Role = "owner" | "admin" | "member";

/** The refusals a role may get; reading a managed route's settings is for each route to decide (the sender's holds credentials). */
function allowedRefusals(route: string, method: string, role: Role): (string | null)[] {
  if (OWNERS_ONLY.some((p) => p.test(route))) return [role === "owner" ? null : "owner_required"];
  if (role !== "member") return [null];
  if (method === "GET") return ADMINS_READ.some((p) => p.test(route)) ? ["admin_required"] : MANAGES_WORKSPACE.some((p) => p.test(route)) ? [null, "admin_required"] : [null];
  return [MANAGES_WORKSPACE.some((p) => p.test(route)) ? "admin_required" : null];
}

describe("roles on every route", () => {
  it("refuse a member only where the workspace is managed or request bodies are read, anyone but an owner only on the owners' alerts", async () => {
    const owner = await createTestAccount();
    const admin = await createTestMember(owner.workspaceId, owner.id, "admin");
    const member = await createTestMember(owner.workspaceId, owner.id, "member");
    const files = routeFiles()
      .map((file) => ({ file, route: relative(file) }))
      .filter(({ route }) => !NOT_SESSION_ROUTES.some((p) => p.test(route)) && !SKIPPED.some((p) => p.test(route)));
    expect(files.length).toBeGreaterThan(50);
    let checked = 0;
    for (const { file, route } of files) {
      const handlers = (await import(file)) as Record<string, NextRouteHandler>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
        const handler = handlers[method];
        if (!handler) continue;
        for (const [user, role] of [[member, "member"], [admin, "admin"], [owner, "owner"]] as const) {
          const cookie = await sessionCookie({ userId: user.id, workspaceId: owner.workspaceId, email: user.email });
          const body = method === "GET" ? undefined : {};
          const result = await callRoute<{ type?: string }>(handler, method, `/api/${route}`, { cookie, headers: SAME_ORIGIN, params: params(route), body });
          if (result.status === 405) continue;
          const refusal = result.status === 403 ? (/#error-(admin_required|owner_required)$/.exec(String(result.body?.type ?? ""))?.[1] ?? null) : null;
          expect(allowedRefusals(route, method, role), `${role} ${method} /api/${route} → ${result.status} ${result.body?.type ?? ""}`).toContain(refusal);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});
