// One door into `messages`: only lib/outbox inserts messages (trigger, bulk chunks, test sends, and
// whatever sends next), and only its status module writes delivery statuses. The source of lib/ and
// app/ is read from disk, so a new file is checked without being listed here. Test factories
// (lib/testing) and tests build their fixtures directly and are not looked at.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const SCANNED = ["lib", "app"];
const NOT_SCANNED = [/^lib\/testing\//, /\.test\.tsx?$/];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !NOT_SCANNED.some((pattern) => pattern.test(file)) ? [file] : [];
  });
}

const files = SCANNED.flatMap((dir) => sourceFiles(dir)).map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }));

/** drizzle `insert(messages)` or SQL `insert into messages` (any spacing and case, `${messages}` too). */
const INSERTS_MESSAGES = /\binsert\s*\(\s*messages\s*\)|\binsert\s+into\s+(?:messages|\$\{\s*messages\s*\})(?![\w$])/i;
/** An UPDATE of `messages` (drizzle or SQL). */
const UPDATES_MESSAGES = /\bupdate\s*\(\s*messages\s*\)|\bupdate\s+(?:messages|\$\{\s*messages\s*\})(?![\w$])/i;
/** Writes of the delivery timestamps: only a delivery status sets them. */
const SETS_DELIVERY = /\b(?:delivered_at|read_at)\s*=(?!=)|\b(?:deliveredAt|readAt)\s*:/;

describe("one door into messages", () => {
  it("finds the source it checks", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some(({ file }) => file === "lib/outbox/enqueue.ts")).toBe(true);
    expect(files.some(({ file }) => file.startsWith("lib/testing/") || file.endsWith(".test.ts"))).toBe(false);
  });

  it("recognises inserts into messages in both spellings", () => {
    expect(INSERTS_MESSAGES.test("await db.insert(messages).values(rows)")).toBe(true);
    expect(INSERTS_MESSAGES.test("sql`INSERT INTO messages (id) select …`")).toBe(true);
    expect(INSERTS_MESSAGES.test("insert into ${messages} (id)")).toBe(true);
    expect(INSERTS_MESSAGES.test("insert into message_status_inbox (wamid)")).toBe(false);
    expect(INSERTS_MESSAGES.test("db.insert(messagesArchive)")).toBe(false);
  });

  it("only lib/outbox inserts into messages", () => {
    const outside = files.filter(({ file, text }) => !file.startsWith("lib/outbox/") && INSERTS_MESSAGES.test(text)).map(({ file }) => file);
    expect(outside, "insert messages through lib/outbox (enqueue.ts, test-sends.ts, snapshot-chunks.ts)").toEqual([]);
  });

  it("only lib/outbox/statuses.ts moves a message to delivered or read", () => {
    const outside = files
      .filter(({ file, text }) => file !== "lib/outbox/statuses.ts" && UPDATES_MESSAGES.test(text) && SETS_DELIVERY.test(text))
      .map(({ file }) => file);
    expect(outside, "apply delivery statuses through lib/outbox/statuses.ts").toEqual([]);
  });
});
