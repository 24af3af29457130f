// Consent by reply: STOP / START keywords and the "Stop promotions" button (writes through the
// consent module's rule, lib/contacts/consent.ts), and the reason shown on a skipped message.
//
// Keyword replies (STOP, UNSUBSCRIBE, the workspace's own keywords → out; START → in) arrive on
// the WhatsApp webhook. START clears any opt-out, whatever its method: the contact asked to
// receive messages again; the previous method and detail stay in the audit row of the opt-in.
import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import type { OptOutMethod } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import type { ConsentSource } from "./consent";

export interface OptOutSource {
  method: OptOutMethod;
  /** Who or what: the user's email, the API key's name, the import's file name, the keyword. */
  detail: string | null;
}

/** The text of Meta's "Stop promotions" button reply (lib/inbound matches the button itself). */
export const STOP_PROMOTIONS_KEYWORD = "STOP PROMOTIONS";

/** Replies that always opt out, besides the workspace's own keywords. */
export const BUILT_IN_OPT_OUT_KEYWORDS = ["STOP", "UNSUBSCRIBE"] as const;
/** Replies that opt back in. */
export const OPT_IN_KEYWORDS = ["START"] as const;

/** Trimmed, upper case, inner whitespace collapsed: how replies and keywords are compared. */
export function normaliseKeyword(text: string): string {
  return text.trim().replace(/\s+/g, " ").toUpperCase();
}

/**
 * A reply as it is compared with the keywords: normalised, and without the punctuation, symbols
 * and emoji around it (`STOP!`, `Stop.`, `stop 🙏`, `"unsubscribe"`). Inside the reply nothing is
 * removed: `S.T.O.P` and `stop, please` are not keywords.
 */
export function normaliseReply(text: string): string {
  return normaliseKeyword(text).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

export type KeywordMatch = { action: "opt_out" | "opt_in"; keyword: string } | null;

/** What a reply asks for: the whole reply must be a keyword ("STOP", not "please stop"). */
export function matchConsentKeyword(text: string, workspaceKeywords: readonly string[] = []): KeywordMatch {
  const reply = normaliseReply(text);
  if (reply === "") return null;
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(reply)) return { action: "opt_in", keyword: reply };
  if ((BUILT_IN_OPT_OUT_KEYWORDS as readonly string[]).includes(reply)) return { action: "opt_out", keyword: reply };
  if (workspaceKeywords.some((keyword) => normaliseReply(keyword) === reply)) return { action: "opt_out", keyword: reply };
  return null;
}

const day = (at: Date | string) => new Date(at).toISOString().slice(0, 10);

/** Error code of a message skipped because its contact opted out. */
export const OPTED_OUT_CODE = "opted_out";

/** The human reason on a message skipped because its contact opted out. */
export function optOutReason(consent: { optedOutAt: Date | string | null; method: OptOutMethod | null; detail: string | null }): string {
  const on = consent.optedOutAt ? ` on ${day(consent.optedOutAt)}` : "";
  const detail = consent.detail?.trim() || null;
  switch (consent.method) {
    case "keyword":
      return `Contact opted out (replied ${detail ?? "an opt-out keyword"}${on})`;
    case "manual":
      return `Contact opted out (by hand${detail ? `, by ${detail}` : ""}${on})`;
    case "import":
      return `Contact opted out (by import${detail ? ` of ${detail}` : ""}${on})`;
    case "api":
      return `Contact opted out (through the API${detail ? `, key ${detail}` : ""}${on})`;
    default:
      return `Contact opted out${on ? ` (${on.trim()})` : ""}`;
  }
}

function auditInsert(input: {
  id: string;
  workspaceId: string;
  action: "contact.opted_out" | "contact.opted_in";
  target: SQL;
  metadata: SQL;
  from: SQL;
}): SQL {
  return sql`insert into audit_events (id, workspace_id, actor_user_id, actor_api_key_id, action, target_type, target_id, metadata)
    select ${input.id}, ${input.workspaceId}, null, null, ${input.action}, 'contact',
      ${input.target}, ${input.metadata}
    ${input.from}
    on conflict (id) do nothing
    returning 1`;
}

export interface InboundReply {
  /** E.164. */
  phone: string;
  text: string;
  /** What the reply asks for, when the caller matched it already (a stop button); otherwise `text` is matched. */
  match?: KeywordMatch;
  /** The inbound message's provider id: a redelivery of the same message changes nothing. */
  messageId: string;
  at: Date;
}

export type ReplyOutcome =
  | { action: "none" }
  | { action: "opted_out" | "opted_in"; keyword: string; contactId: string | null; changed: boolean; created: boolean };

/** The audit row id of one inbound message in one workspace: what makes redeliveries harmless. */
function replyEventId(workspaceId: string, messageId: string): string {
  return `evt_in_${createHash("sha256").update(`${workspaceId}\n${messageId}`).digest("base64url").slice(0, 32)}`;
}

/**
 * Applies a reply's keyword to the contact with that phone. STOP from a number not yet known
 * creates the contact opted out, so the wish holds for future sends; START from an unknown number
 * does nothing. Every keyword reply is audited once (with `changed`), keyed by the inbound message
 * id, so a redelivered STOP cannot undo a later START. Meta does not guarantee delivery order: a
 * reply older than a keyword reply already applied to the contact changes nothing.
 */
export async function applyConsentReply(db: Executor, workspaceId: string, reply: InboundReply, workspaceKeywords: readonly string[]): Promise<ReplyOutcome> {
  const match = reply.match ?? matchConsentKeyword(reply.text, workspaceKeywords);
  if (!match) return { action: "none" };
  const eventId = replyEventId(workspaceId, reply.messageId);
  const existing = sql`(select id from contacts where workspace_id = ${workspaceId} and phone_number = ${reply.phone})`;
  const fresh = sql`not exists (select 1 from audit_events where id = ${eventId})`;
  const at = reply.at.toISOString();
  // Keyword replies of this contact sent after this one (their rows were written after it was sent).
  const newerReply = (contactId: SQL) => sql`exists (select 1 from audit_events e
    where e.workspace_id = ${workspaceId} and e.created_at > ${at}::timestamptz and left(e.id, 7) = 'evt_in_'
      and e.target_type = 'contact' and e.target_id = ${contactId} and (e.metadata->>'at')::timestamptz > ${at}::timestamptz)`;
  const base = { action: match.action === "opt_out" ? "opted_out" : "opted_in", keyword: match.keyword } as const;
  // Meta's "Stop promotions" button arrives as a button reply with this text.
  const source: ConsentSource = match.keyword === STOP_PROMOTIONS_KEYWORD ? "button" : "keyword";

  if (match.action === "opt_out") {
    const [row] = await queryRows<{ id: string | null; created: boolean | null; changed: boolean }>(
      db,
      sql`with up as (
          insert into contacts as c (id, workspace_id, phone_number, opted_out_at, opt_out_method, opt_out_detail, consent_status, consent_source, consent_at)
          select ${newId("ctc")}, ${workspaceId}, ${reply.phone}, ${reply.at.toISOString()}::timestamptz, 'keyword', ${match.keyword},
            'unsubscribed', ${source}, ${reply.at.toISOString()}::timestamptz
          where ${fresh}
          on conflict (workspace_id, phone_number) do update
            set opted_out_at = excluded.opted_out_at, opt_out_method = excluded.opt_out_method,
                opt_out_detail = excluded.opt_out_detail, consent_status = excluded.consent_status,
                consent_source = excluded.consent_source, consent_at = excluded.consent_at, updated_at = now()
            where c.opted_out_at is null and not ${newerReply(sql`c.id`)}
          returning c.id, (xmax = 0) as created
        ),
        audit as (${auditInsert({
          id: eventId,
          workspaceId,
          action: "contact.opted_out",
          target: sql`coalesce((select id from up), ${existing})`,
          metadata: sql`jsonb_build_object('method', 'keyword', 'detail', ${match.keyword}::text, 'messageId', ${reply.messageId}::text,
            'at', ${reply.at.toISOString()}::text, 'changed', exists (select 1 from up))`,
          from: sql`where ${fresh} and coalesce((select id from up), ${existing}) is not null`,
        })})
        select coalesce((select id from up), ${existing}) as id, (select created from up) as created, exists (select 1 from up) as changed`,
    );
    return { ...base, contactId: row?.id ?? null, changed: Boolean(row?.changed), created: Boolean(row?.created) };
  }

  const [row] = await queryRows<{ id: string | null; changed: boolean }>(
    db,
    sql`with old as (
        select id, opted_out_at, opt_out_method, opt_out_detail, consent_status from contacts
        where workspace_id = ${workspaceId} and phone_number = ${reply.phone} and consent_status <> 'subscribed' and ${fresh}
          and not ${newerReply(sql`contacts.id`)}
        for update
      ),
      up as (
        update contacts c set opted_out_at = null, opt_out_method = null, opt_out_detail = null,
          consent_status = 'subscribed', consent_source = ${source}, consent_at = ${reply.at.toISOString()}::timestamptz, updated_at = now()
        from old where c.id = old.id
        returning c.id
      ),
      audit as (${auditInsert({
        id: eventId,
        workspaceId,
        action: "contact.opted_in",
        target: existing,
        metadata: sql`jsonb_build_object('method', 'keyword', 'detail', ${match.keyword}::text, 'messageId', ${reply.messageId}::text,
          'at', ${reply.at.toISOString()}::text, 'changed', exists (select 1 from up),
          'previous', (select jsonb_build_object('status', old.consent_status, 'optedOutAt', old.opted_out_at, 'method', old.opt_out_method, 'detail', old.opt_out_detail) from old))`,
        from: sql`where ${fresh} and ${existing} is not null`,
      })})
      select ${existing} as id, exists (select 1 from up) as changed`,
  );
  return { ...base, contactId: row?.id ?? null, changed: Boolean(row?.changed), created: false };
}
