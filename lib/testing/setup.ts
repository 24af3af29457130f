import { afterAll } from "vitest";
import { closeDb } from "@/db";

if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
process.env.DATABASE_POOL_MAX ??= "4";
// Sessions and the encryption of stored WhatsApp credentials derive their keys from it.
process.env.AUTH_SECRET ??= "test-only-secret-0123456789abcdef0123456789";

afterAll(async () => {
  await closeDb();
});
