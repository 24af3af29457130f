import { and, asc, eq } from "drizzle-orm";
import type { DB } from "./types";
import { seedDemoWorkspace } from "./demo-workspace";
import { memberships, users } from "./schema";
import { createUserWithWorkspace } from "@/lib/auth/accounts";
import { hashPassword } from "@/lib/auth/password";

export const DEMO_USER = { email: "demo@sendstream.local", password: "sendstream-demo", name: "Demo User", workspaceName: "Demo Shop" };

/**
 * Whether a server start fills the database with demo data. A known login must never appear in a
 * production deployment, so only `next dev` on the embedded database seeds by itself;
 * SENDSTREAM_SEED=true asks for it anywhere (a staging box), SENDSTREAM_SEED=false never.
 */
export function seedsOnStart(env: Record<string, string | undefined> = process.env): boolean {
  if (env.SENDSTREAM_SEED === "true") return true;
  if (env.SENDSTREAM_SEED === "false") return false;
  return env.NODE_ENV === "development" && !env.DATABASE_URL;
}

/**
 * Demo user, workspace and sandbox sender, and the demo workspace's content (db/demo-workspace.ts:
 * customers, a list, a segment, a completed bulk campaign with replies, a live trigger campaign).
 * Safe to run again: an existing demo login is kept, and a demo workspace that already has contacts
 * or campaigns is left as it is (an older, empty demo workspace is filled).
 */
export async function seedDemoData(db: DB): Promise<{ created: boolean; seeded: boolean }> {
  const [existing] = await db
    .select({ id: users.id, workspaceId: memberships.workspaceId })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.role, "owner")))
    .where(eq(users.email, DEMO_USER.email))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (existing) {
    if (!existing.workspaceId) return { created: false, seeded: false };
    const { seeded } = await seedDemoWorkspace(db, { workspaceId: existing.workspaceId, userId: existing.id });
    return { created: false, seeded };
  }
  const user = await createUserWithWorkspace(db, {
    name: DEMO_USER.name,
    email: DEMO_USER.email,
    workspaceName: DEMO_USER.workspaceName,
    passwordHash: await hashPassword(DEMO_USER.password),
    // An address the operator chose for the demo, not one typed into the sign-up form.
    emailVerified: true,
  });
  const { seeded } = await seedDemoWorkspace(db, { workspaceId: user.workspaceId, userId: user.id });
  return { created: true, seeded };
}
