import { afterAll } from "vitest";
import { closeDb } from "@/db";

if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
process.env.DATABASE_POOL_MAX ??= "4";

afterAll(async () => {
  await closeDb();
});
