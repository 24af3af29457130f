import { getDb } from "@/db";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { createUserWithWorkspace, type AccountUser } from "@/lib/auth/accounts";
import { randomBase62 } from "@/lib/crypto/random";
import type { Mail } from "@/lib/mail";
import { acceptInvitation, inviteMember } from "@/lib/members/service";

/** A user with their own workspace; unique per call so tests never collide on a shared database. */
export async function createTestAccount(overrides: { name?: string; email?: string } = {}): Promise<AccountUser> {
  const db = await getDb();
  return createUserWithWorkspace(db, {
    name: overrides.name ?? "Test User",
    email: overrides.email ?? `user-${randomBase62(10).toLowerCase()}@example.test`,
    passwordHash: null,
  });
}

/** A new user who joined the owner's workspace as `role` through a real invitation (their own workspace stays theirs). */
export async function createTestMember(workspaceId: string, ownerId: string, role: "admin" | "member"): Promise<AccountUser> {
  const user = await createTestAccount();
  const mails: Mail[] = [];
  await inviteMember(await getDb(), workspaceId, { ...SYSTEM_ACTOR, userId: ownerId }, { email: user.email, role }, { baseUrl: "http://x", mail: async (m) => void mails.push(m) });
  await new Promise((resolve) => setImmediate(resolve));
  const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mails[0]!.text)![1]!;
  await acceptInvitation(await getDb(), token, user, SYSTEM_ACTOR);
  return user;
}
