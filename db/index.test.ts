import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "./index";

const saved = { ...process.env };

// The embedded database the test setup keeps open between files is closed first: each test opens its own.
beforeEach(() => closeDb());

afterEach(async () => {
  await closeDb();
  process.env = { ...saved };
});

// Only meaningful for the embedded driver; the Postgres run has no local data folder to lock.
describe.skipIf(Boolean(process.env.DATABASE_URL))("embedded database", () => {
  it("creates its folder, migrates, and refuses a folder another live process holds", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sendstream-db-"));
    const dir = path.join(root, "nested", "pglite");
    process.env.PGLITE_DIR = dir;
    const db = await getDb();
    const result = await db.execute(sql`select count(*)::int as n from users`);
    expect(result).toBeDefined();
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
    await closeDb();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);

    // The parent process (the test runner) is alive and is not us.
    fs.writeFileSync(`${dir}.lock`, String(process.ppid));
    await expect(getDb()).rejects.toThrow(/in use by another process \(pid \d+\)/);

    // A lock left by a process that no longer exists is taken over.
    fs.writeFileSync(`${dir}.lock`, "999999");
    await expect(getDb()).resolves.toBeDefined();
  });

  it("opens one instance per process however often it is asked", async () => {
    process.env.PGLITE_DIR = "memory://";
    const [a, b] = await Promise.all([getDb(), getDb()]);
    expect(a).toBe(b);
  });
});
