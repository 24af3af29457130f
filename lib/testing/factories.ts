import { getDb } from "@/db";
import { createUserWithWorkspace, type AccountUser } from "@/lib/auth/accounts";
import { randomBase62 } from "@/lib/crypto/random";

/** A user with their own workspace; unique per call so tests never collide on a shared database. */
export async function createTestAccount(overrides: { name?: string; email?: string } = {}): Promise<AccountUser> {
  const db = await getDb();
  return createUserWithWorkspace(db, {
    name: overrides.name ?? "Test User",
    email: overrides.email ?? `user-${randomBase62(10).toLowerCase()}@example.test`,
    passwordHash: null,
  });
}
