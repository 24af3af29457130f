import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, migrationsFolder } from "@/db";
import { queryRows } from "@/db/rows";
import { auditEvents, contacts } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { setContactConsent } from "./consent";
import { applyConsentReply, STOP_PROMOTIONS_KEYWORD } from "./opt-out";

const phone = () => `+1415556${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;

async function insertContact(workspaceId: string) {
  const db = await getDb();
  const id = newId("ctc");
  const p = phone();
  await db.insert(contacts).values({ id, workspaceId, phoneNumber: p });
  return { id, phone: p };
}

async function row(id: string) {
  const db = await getDb();
  const [found] = await db.select().from(contacts).where(eq(contacts.id, id));
  return found!;
}

describe("the consent migration", () => {
  it("maps existing contacts as they meant: opted out → unsubscribed with how and when, everyone else unknown", async () => {
    const db = await getDb();
    const file = fs.readdirSync(migrationsFolder).find((name) => name.endsWith("_contact_consent.sql"))!;
    const statements = fs
      .readFileSync(path.join(migrationsFolder, file), "utf8")
      .split("--> statement-breakpoint")
      .map((statement) => statement.trim())
      .filter(Boolean);
    const schema = `mig_${randomBase62(8).toLowerCase()}`;
    // The tables as they were before the migration, in a schema of their own, with rows in them.
    const results = await db
      .transaction(async (tx) => {
        await tx.execute(sql.raw(`create schema ${schema}`));
        await tx.execute(sql.raw(`set local search_path to ${schema}`));
        await tx.execute(sql.raw(`create table contacts (id text primary key, workspace_id text not null, phone_number text not null,
          opted_out_at timestamptz, opt_out_method text, opt_out_detail text, updated_at timestamptz not null default now())`));
        await tx.execute(sql.raw(`create table contact_import_rows (import_id text not null, row_number integer not null, opted_out boolean)`));
        await tx.execute(sql.raw(`insert into contacts (id, workspace_id, phone_number, opted_out_at, opt_out_method, opt_out_detail) values
          ('ctc_a', 'ws', '+1', null, null, null),
          ('ctc_b', 'ws', '+2', '2026-11-20T10:00:00Z', 'keyword', 'STOP'),
          ('ctc_c', 'ws', '+3', '2026-11-21T10:00:00Z', 'keyword', 'STOP PROMOTIONS'),
          ('ctc_d', 'ws', '+4', '2026-11-22T10:00:00Z', 'import', 'march.csv')`));
        for (const statement of statements) await tx.execute(sql.raw(statement));
        const rows = await queryRows<{ id: string; consent_status: string; consent_source: string | null; consent_at: unknown; opted_out_at: unknown }>(
          tx,
          sql.raw(`select id, consent_status, consent_source, consent_at, opted_out_at from contacts order by id`),
        );
        // The check holds from now on: an unsubscribed contact without its opt-out record is refused.
        const refused = await tx
          .execute(sql.raw(`savepoint s; update contacts set consent_status = 'unsubscribed' where id = 'ctc_a'`))
          .then(() => false)
          .catch(() => true);
        throw Object.assign(new Error("rollback"), { rows, refused });
      })
      .catch((error: { rows?: unknown; refused?: boolean }) => {
        if (!error.rows) throw error;
        return { rows: error.rows as { id: string; consent_status: string; consent_source: string | null; consent_at: unknown; opted_out_at: unknown }[], refused: error.refused };
      });
    expect(results.rows.map((r) => [r.id, r.consent_status, r.consent_source])).toEqual([
      ["ctc_a", "unknown", null],
      ["ctc_b", "unsubscribed", "keyword"],
      ["ctc_c", "unsubscribed", "button"],
      ["ctc_d", "unsubscribed", "import"],
    ]);
    for (const r of results.rows) expect(r.consent_at === null ? null : new Date(r.consent_at as string).getTime()).toBe(r.opted_out_at === null ? null : new Date(r.opted_out_at as string).getTime());
    expect(results.refused).toBe(true);
    const [left] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from information_schema.schemata where schema_name = ${schema}`);
    expect(Number(left?.n)).toBe(0);
  });
});

describe("setContactConsent", () => {
  it("moves between the three statuses, keeps the opt-out record in step, and audits each change once", async () => {
    const account = await createTestAccount();
    const db = await getDb();
    const contact = await insertContact(account.workspaceId);
    const actor = { ...SYSTEM_ACTOR, userId: account.id };
    expect(await row(contact.id)).toMatchObject({ consentStatus: "unknown", consentSource: null, consentAt: null });

    const subscribed = await setContactConsent(db, account.workspaceId, contact.id, "subscribed", { source: "manual", detail: "ann@example.test" }, actor);
    expect(subscribed).toMatchObject({ changed: true, previous: "unknown", row: { consentStatus: "subscribed", consentSource: "manual", optedOutAt: null } });
    expect(subscribed.row.consentAt).toBeInstanceOf(Date);
    expect((await setContactConsent(db, account.workspaceId, contact.id, "subscribed", { source: "api", detail: "CRM" }, actor)).changed).toBe(false);
    expect((await row(contact.id)).consentSource).toBe("manual");

    const out = await setContactConsent(db, account.workspaceId, contact.id, "unsubscribed", { source: "button", detail: STOP_PROMOTIONS_KEYWORD }, actor);
    expect(out.row).toMatchObject({ consentStatus: "unsubscribed", consentSource: "button", optOutMethod: "keyword", optOutDetail: STOP_PROMOTIONS_KEYWORD });
    expect(out.row.optedOutAt).toEqual(out.row.consentAt);

    const unknown = await setContactConsent(db, account.workspaceId, contact.id, "unknown", { source: "manual", detail: null }, actor);
    expect(unknown.row).toMatchObject({ consentStatus: "unknown", optedOutAt: null, optOutMethod: null, optOutDetail: null });

    const audits = await db
      .select({ metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, account.workspaceId), eq(auditEvents.action, "contact.consent_changed")))
      .orderBy(auditEvents.createdAt);
    expect(audits.map((a) => [a.metadata.from, a.metadata.to, a.metadata.source])).toEqual([
      ["unknown", "subscribed", "manual"],
      ["subscribed", "unsubscribed", "button"],
      ["unsubscribed", "unknown", "manual"],
    ]);

    const stranger = await createTestAccount();
    await expect(setContactConsent(db, stranger.workspaceId, contact.id, "subscribed", { source: "manual", detail: null }, actor)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("consent by reply", () => {
  const reply = (p: string, text: string, at: Date) => ({ phone: p, text, messageId: `wamid.IN${randomBase62(12)}`, at });

  it("STOP unsubscribes (source keyword), START subscribes, the Stop promotions button unsubscribes (source button)", async () => {
    const { workspaceId } = await createTestAccount();
    const db = await getDb();
    const contact = await insertContact(workspaceId);
    await applyConsentReply(db, workspaceId, reply(contact.phone, "stop", new Date("2026-11-20T10:00:00Z")), []);
    expect(await row(contact.id)).toMatchObject({ consentStatus: "unsubscribed", consentSource: "keyword", consentAt: new Date("2026-11-20T10:00:00Z") });
    await applyConsentReply(db, workspaceId, reply(contact.phone, "START", new Date("2026-11-20T11:00:00Z")), []);
    expect(await row(contact.id)).toMatchObject({ consentStatus: "subscribed", consentSource: "keyword", optedOutAt: null });
    const button = { ...reply(contact.phone, "Stop promotions", new Date("2026-11-20T12:00:00Z")), match: { action: "opt_out" as const, keyword: STOP_PROMOTIONS_KEYWORD } };
    await applyConsentReply(db, workspaceId, button, []);
    expect(await row(contact.id)).toMatchObject({ consentStatus: "unsubscribed", consentSource: "button", optOutMethod: "keyword" });

    // START from a contact who never said anything is an opt-in too.
    const quiet = await insertContact(workspaceId);
    const started = await applyConsentReply(db, workspaceId, reply(quiet.phone, "start", new Date("2026-11-20T13:00:00Z")), []);
    expect(started).toMatchObject({ action: "opted_in", changed: true });
    expect(await row(quiet.id)).toMatchObject({ consentStatus: "subscribed", consentSource: "keyword" });

    // STOP from an unknown number creates the contact unsubscribed.
    const stranger = phone();
    const created = await applyConsentReply(db, workspaceId, reply(stranger, "STOP", new Date("2026-11-20T14:00:00Z")), []);
    expect(created).toMatchObject({ created: true });
    const [fresh] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.phoneNumber, stranger)));
    expect(fresh).toMatchObject({ consentStatus: "unsubscribed", consentSource: "keyword" });
  });
});
