import { eq } from "drizzle-orm";
import type { DB } from "./types";
import { users } from "./schema";
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

/** Demo user, workspace and sandbox sender. Safe to run again: existing demo data is left alone. */
export async function seedDemoData(db: DB): Promise<{ created: boolean }> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USER.email)).limit(1);
  if (existing) return { created: false };
  await createUserWithWorkspace(db, {
    name: DEMO_USER.name,
    email: DEMO_USER.email,
    workspaceName: DEMO_USER.workspaceName,
    passwordHash: await hashPassword(DEMO_USER.password),
    // An address the operator chose for the demo, not one typed into the sign-up form.
    emailVerified: true,
  });
  return { created: true };
}
