import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, contacts } from "@/db/schema";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { applyConsentReply, matchConsentKeyword, optOutReason } from "./opt-out";

const phone = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
const reply = (p: string, text: string, at = new Date("2026-11-20T10:00:00Z")) => ({ phone: p, text, messageId: `wamid.IN${randomBase62(12)}`, at });

async function contactRow(workspaceId: string, p: string) {
  const db = await getDb();
  const [row] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.phoneNumber, p)));
  return row ?? null;
}

async function insertContact(workspaceId: string, p: string, values: Partial<typeof contacts.$inferInsert> = {}) {
  const db = await getDb();
  const id = newId("ctc");
  await db.insert(contacts).values({ id, workspaceId, phoneNumber: p, ...values });
  return id;
}

async function auditOf(workspaceId: string) {
  const db = await getDb();
  return db.select().from(auditEvents).where(eq(auditEvents.workspaceId, workspaceId));
}

describe("matchConsentKeyword", () => {
  it("matches the whole reply, trimmed and in any case", () => {
    expect(matchConsentKeyword("  stop ")).toEqual({ action: "opt_out", keyword: "STOP" });
    expect(matchConsentKeyword("Unsubscribe")).toEqual({ action: "opt_out", keyword: "UNSUBSCRIBE" });
    expect(matchConsentKeyword("start")).toEqual({ action: "opt_in", keyword: "START" });
    expect(matchConsentKeyword("arrêt", ["ARRÊT"])).toEqual({ action: "opt_out", keyword: "ARRÊT" });
    expect(matchConsentKeyword("no  more", ["No more"])).toEqual({ action: "opt_out", keyword: "NO MORE" });
    expect(matchConsentKeyword("please stop")).toBeNull();
    expect(matchConsentKeyword("")).toBeNull();
    expect(matchConsentKeyword("CANCEL")).toBeNull();
  });

  it("ignores punctuation and emoji around the reply, never inside it", () => {
    expect(matchConsentKeyword("STOP!")).toEqual({ action: "opt_out", keyword: "STOP" });
    expect(matchConsentKeyword("Stop.")).toEqual({ action: "opt_out", keyword: "STOP" });
    expect(matchConsentKeyword("stop 🙏")).toEqual({ action: "opt_out", keyword: "STOP" });
    expect(matchConsentKeyword("🛑 STOP!!! 🛑")).toEqual({ action: "opt_out", keyword: "STOP" });
    expect(matchConsentKeyword("\"unsubscribe\"")).toEqual({ action: "opt_out", keyword: "UNSUBSCRIBE" });
    expect(matchConsentKeyword("start :)")).toEqual({ action: "opt_in", keyword: "START" });
    expect(matchConsentKeyword("No more!", ["NO MORE"])).toEqual({ action: "opt_out", keyword: "NO MORE" });
    expect(matchConsentKeyword("S.T.O.P")).toBeNull();
    expect(matchConsentKeyword("stop, please")).toBeNull();
    expect(matchConsentKeyword("!!!")).toBeNull();
    expect(matchConsentKeyword("🙏")).toBeNull();
  });
});

describe("optOutReason", () => {
  it("says how and when", () => {
    expect(optOutReason({ optedOutAt: "2026-11-20T10:00:00Z", method: "keyword", detail: "STOP" })).toBe("Contact opted out (replied STOP on 2026-11-20)");
    expect(optOutReason({ optedOutAt: new Date("2026-11-21T00:00:00Z"), method: "manual", detail: "ann@example.test" })).toBe(
      "Contact opted out (by hand, by ann@example.test on 2026-11-21)",
    );
    expect(optOutReason({ optedOutAt: "2026-11-20T10:00:00Z", method: "import", detail: "march.csv" })).toBe("Contact opted out (by import of march.csv on 2026-11-20)");
    expect(optOutReason({ optedOutAt: "2026-11-20T10:00:00Z", method: "api", detail: "CRM" })).toBe("Contact opted out (through the API, key CRM on 2026-11-20)");
  });
});

describe("applyConsentReply", () => {
  it("STOP opts a known contact out with method keyword and is audited once", async () => {
    const { workspaceId } = await createTestAccount();
    const p = phone();
    const id = await insertContact(workspaceId, p, { name: "Ann" });
    const stop = reply(p, "stop");
    const outcome = await applyConsentReply(await getDb(), workspaceId, stop, []);
    expect(outcome).toMatchObject({ action: "opted_out", keyword: "STOP", contactId: id, changed: true, created: false });
    expect(await contactRow(workspaceId, p)).toMatchObject({ name: "Ann", optOutMethod: "keyword", optOutDetail: "STOP", optedOutAt: stop.at });

    const again = await applyConsentReply(await getDb(), workspaceId, stop, []);
    expect(again).toMatchObject({ changed: false });
    const audit = await auditOf(workspaceId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "contact.opted_out", targetType: "contact", targetId: id });
    expect(audit[0]!.metadata).toMatchObject({ method: "keyword", detail: "STOP", messageId: stop.messageId, changed: true });
  });

  it("STOP from an unknown number creates the contact opted out; START from one does nothing", async () => {
    const { workspaceId } = await createTestAccount();
    const unknown = phone();
    const outcome = await applyConsentReply(await getDb(), workspaceId, reply(unknown, "UNSUBSCRIBE"), []);
    expect(outcome).toMatchObject({ action: "opted_out", changed: true, created: true });
    expect(await contactRow(workspaceId, unknown)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "UNSUBSCRIBE" });

    const stranger = phone();
    expect(await applyConsentReply(await getDb(), workspaceId, reply(stranger, "START"), [])).toMatchObject({ action: "opted_in", contactId: null, changed: false });
    expect(await contactRow(workspaceId, stranger)).toBeNull();
  });

  it("START clears any opt-out, keeps the previous one in the audit row, and a redelivered STOP does not undo it", async () => {
    const { workspaceId } = await createTestAccount();
    const p = phone();
    const stop = reply(p, "STOP");
    await applyConsentReply(await getDb(), workspaceId, stop, []);
    const db = await getDb();
    // A manual opt-out too: START clears it anyway.
    await db.update(contacts).set({ optOutMethod: "manual", optOutDetail: "ann@example.test" }).where(eq(contacts.phoneNumber, p));
    const start = await applyConsentReply(db, workspaceId, reply(p, " Start "), []);
    expect(start).toMatchObject({ action: "opted_in", changed: true });
    expect(await contactRow(workspaceId, p)).toMatchObject({ optedOutAt: null, optOutMethod: null, optOutDetail: null });
    const optIn = (await auditOf(workspaceId)).find((e) => e.action === "contact.opted_in");
    expect(optIn?.metadata).toMatchObject({ method: "keyword", detail: "START", previous: { method: "manual", detail: "ann@example.test" } });

    expect(await applyConsentReply(db, workspaceId, stop, [])).toMatchObject({ changed: false });
    expect((await contactRow(workspaceId, p))?.optedOutAt).toBeNull();
  });

  it("a reply delivered late changes nothing when a newer keyword reply was already applied", async () => {
    const { workspaceId } = await createTestAccount();
    const db = await getDb();
    const p = phone();
    const t = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));
    await applyConsentReply(db, workspaceId, reply(p, "STOP", t(0)), []);
    await applyConsentReply(db, workspaceId, reply(p, "START", t(20)), []);
    expect(await applyConsentReply(db, workspaceId, reply(p, "STOP", t(10)), [])).toMatchObject({ action: "opted_out", changed: false });
    expect((await contactRow(workspaceId, p))?.optedOutAt).toBeNull();

    await applyConsentReply(db, workspaceId, reply(p, "STOP", t(30)), []);
    expect(await applyConsentReply(db, workspaceId, reply(p, "START", t(25)), [])).toMatchObject({ action: "opted_in", changed: false });
    expect(await contactRow(workspaceId, p)).toMatchObject({ optedOutAt: t(30), optOutDetail: "STOP" });
  });

  it("a workspace keyword opts out; other text and another workspace's contact are untouched", async () => {
    const mine = await createTestAccount();
    const other = await createTestAccount();
    const p = phone();
    await insertContact(mine.workspaceId, p);
    await insertContact(other.workspaceId, p);
    expect(await applyConsentReply(await getDb(), mine.workspaceId, reply(p, "thanks!"), ["ARRET"])).toEqual({ action: "none" });
    expect((await contactRow(mine.workspaceId, p))?.optedOutAt).toBeNull();
    expect(await applyConsentReply(await getDb(), mine.workspaceId, reply(p, "arret"), ["ARRET"])).toMatchObject({ action: "opted_out", changed: true });
    expect(await contactRow(mine.workspaceId, p)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "ARRET" });
    expect((await contactRow(other.workspaceId, p))?.optedOutAt).toBeNull();
  });
});
