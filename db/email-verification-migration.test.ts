import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.join(import.meta.dirname, "migrations");
const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };

async function apply(db: PGlite, tag: string) {
  const text = fs.readFileSync(path.join(MIGRATIONS, `${tag}.sql`), "utf8");
  for (const statement of text.split("--> statement-breakpoint")) if (statement.trim()) await db.exec(statement);
}

describe("the email verification migration", () => {
  it("counts OAuth-only accounts and accounts that completed a password reset as verified, and no other", async () => {
    const db = new PGlite();
    const tags = journal.entries.map((entry) => entry.tag);
    const index = tags.findIndex((tag) => tag.endsWith("_email_verification"));
    for (const tag of tags.slice(0, index)) await apply(db, tag);
    await db.exec(`
      insert into users (id, email, name, password_hash, created_at) values
        ('usr_pw', 'pw@example.test', 'Password', 'scrypt$x', '2026-01-01T00:00:00Z'),
        ('usr_oauth', 'oauth@example.test', 'OAuth', null, '2026-01-02T00:00:00Z'),
        ('usr_reset', 'reset@example.test', 'Reset', 'scrypt$y', '2026-01-03T00:00:00Z'),
        ('usr_asked', 'asked@example.test', 'Asked', 'scrypt$z', '2026-01-04T00:00:00Z');
      insert into password_reset_tokens (id, user_id, token_hash, expires_at, used_at) values
        ('prt_1', 'usr_reset', 'h1', '2026-02-01T01:00:00Z', '2026-02-01T00:10:00Z'),
        ('prt_2', 'usr_asked', 'h2', '2026-02-01T01:00:00Z', null);
    `);
    await apply(db, tags[index]!);
    const { rows } = await db.query<{ id: string; verified: string | null }>(`select id, email_verified_at::text as verified from users order by id`);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.verified]))).toEqual({
      usr_asked: null,
      usr_oauth: "2026-01-02 00:00:00+00",
      usr_pw: null,
      usr_reset: "2026-02-01 00:10:00+00",
    });
    await db.close();
  });
});
