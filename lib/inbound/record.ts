// Inbound messages: every message a contact sends to one of the workspace's numbers is stored once
// (by the provider's id), linked to its contact (an unknown number becomes a contact, named after
// its profile) and to the outbound message it answers, counted against the number's throughput,
// and read for consent (keywords, the marketing "Stop promotions" button).
//
// Statements: one for the whole batch (contacts, context links, insert), one to book the sender's
// rate lane when anything new was stored, and one per consent keyword reply.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import type { inboundKinds } from "@/db/schema";
import type { InboundKind, InboundMessage } from "@/lib/channels/types";
import { applyConsentReply, matchConsentKeyword, normaliseReply, STOP_PROMOTIONS_KEYWORD, type KeywordMatch, type ReplyOutcome } from "@/lib/contacts/opt-out";
import { newId } from "@/lib/crypto/random";
import { toStorableText } from "@/lib/http/storable-text";
import { createSharedThroughputLimiter, senderLane, type ThroughputLimiter } from "@/lib/messaging/throughput";
import { answerAutomatically, type AnswerableMessage } from "./auto-replies";
import { attributeReplies, touchConversations, type StoredInbound } from "./conversation-activity";
import { SERVICE_WINDOW_MS } from "./window";
import { inboundSummary } from "./public";

// The stored kinds and the channel contract's kinds are the same list.
type SameKinds = [InboundKind] extends [(typeof inboundKinds)[number]] ? ([(typeof inboundKinds)[number]] extends [InboundKind] ? true : never) : never;
const sameKinds: SameKinds = true;
void sameKinds;

/** The number a batch arrived on. */
export interface InboundScope {
  workspaceId: string;
  senderId: string;
}

export interface RecordedInbound {
  /** The stored row (`inbound_messages.id`), new or already stored. */
  id: string;
  providerMessageId: string;
  /** False for a redelivery: the message was stored before and nothing changed. */
  stored: boolean;
  contactId: string | null;
  /** True when the message's number was not a contact of the workspace yet. */
  contactCreated: boolean;
  /** The outbound message it answers and that message's campaign, when found in the workspace. */
  replyToMessageId: string | null;
  campaignId: string | null;
  consent: ReplyOutcome;
}

export interface RecordOutcome {
  /** Messages stored by this call. */
  stored: number;
  /** Messages already stored (redeliveries), changed nothing. */
  duplicates: number;
  /** Keyword auto-replies queued (the caller dispatches them). */
  autoReplies: number;
  messages: RecordedInbound[];
}

/** The text of Meta's marketing opt-out quick-reply button (its payload is the same unless set). */
export const STOP_PROMOTIONS = STOP_PROMOTIONS_KEYWORD;

/**
 * What an inbound message asks for: typed text, a quick-reply button's text or payload, or an
 * interactive reply's title or id, matched as consent keywords; Meta's "Stop promotions" button
 * opts out. Media captions, locations and reactions are never consent.
 */
export function consentOf(message: Pick<InboundMessage, "kind" | "text" | "payload">, workspaceKeywords: readonly string[]): KeywordMatch {
  if (message.kind === "button" && [message.text, message.payload].some((value) => value !== null && normaliseReply(value) === STOP_PROMOTIONS)) {
    return { action: "opt_out", keyword: STOP_PROMOTIONS };
  }
  const candidates = message.kind === "text" ? [message.text] : message.kind === "button" || message.kind === "interactive" ? [message.text, message.payload] : [];
  for (const candidate of candidates) {
    const match = candidate ? matchConsentKeyword(candidate, workspaceKeywords) : null;
    if (match) return match;
  }
  return null;
}

const clean = (value: string | null) => (value === null ? null : toStorableText(value));

/**
 * The message with every text the database cannot store (NUL, unpaired surrogates) replaced: a
 * contact's odd text must never fail the webhook delivery that carries it (and its statuses).
 */
function storable(message: InboundMessage): InboundMessage {
  return {
    ...message,
    providerMessageId: toStorableText(message.providerMessageId),
    profileName: clean(message.profileName),
    text: clean(message.text),
    payload: clean(message.payload),
    media: message.media && { ...message.media, id: toStorableText(message.media.id), mimeType: clean(message.media.mimeType), caption: clean(message.media.caption), filename: clean(message.media.filename) },
    location: message.location && { ...message.location, name: clean(message.location.name), address: clean(message.location.address) },
    reaction: message.reaction && { emoji: toStorableText(message.reaction.emoji), providerMessageId: toStorableText(message.reaction.providerMessageId) },
    contextProviderMessageId: clean(message.contextProviderMessageId),
  };
}

interface Row {
  ord: number;
  id: string;
  provider_message_id: string;
  stored: boolean;
  contact_id: string | null;
  contact_created: boolean;
  reply_to: string | null;
  campaign_id: string | null;
  per_second: number | null;
  keywords: string[] | null;
}

/**
 * Stores `messages` received on the scope's number. Idempotent: a message already stored in the
 * workspace (same provider id) changes nothing, and its consent keyword is not applied twice (each
 * keyword reply is audited once, by its provider id). Messages new to the workspace take their slot
 * on the sender's rate lane, as the provider counts inbound and outbound messages together.
 */
export async function recordInboundMessages(
  db: Executor,
  scope: InboundScope,
  messages: readonly InboundMessage[],
  options: { limiter?: ThroughputLimiter; now?: () => number } = {},
): Promise<RecordOutcome> {
  if (messages.length === 0) return { stored: 0, duplicates: 0, autoReplies: 0, messages: [] };
  const { workspaceId, senderId } = scope;
  const json = JSON.stringify(
    messages.map(storable).map((message, ord) => ({
      ord,
      id: newId("inm"),
      contact_id: newId("ctc"),
      phone: message.from,
      profile_name: message.profileName?.trim() || null,
      provider_message_id: message.providerMessageId,
      kind: message.kind,
      text: message.text,
      payload: message.payload,
      media: message.media,
      location: message.location,
      reaction: message.reaction,
      context: message.contextProviderMessageId,
      // A reaction answers the message it reacts to.
      answers: message.contextProviderMessageId ?? message.reaction?.providerMessageId ?? null,
      received_at: message.at.toISOString(),
    })),
  );
  const rows = await queryRows<Row>(
    db,
    sql`with v as (
      select * from jsonb_to_recordset(${json}::jsonb) as v(
        ord int, id text, contact_id text, phone text, profile_name text, provider_message_id text, kind text,
        text text, payload text, media jsonb, location jsonb, reaction jsonb, context text, answers text, received_at timestamptz)
    ), new_contacts as (
      insert into contacts as c (id, workspace_id, phone_number, name)
      select distinct on (phone) contact_id, ${workspaceId}, phone, profile_name from v order by phone, ord
      on conflict (workspace_id, phone_number) do nothing
      returning c.id, c.phone_number
    ), linked as (
      select v.*, coalesce(n.id, c.id) as cid, (n.id is not null) as contact_created, m.id as reply_to, m.campaign_id
      from v
      left join new_contacts n on n.phone_number = v.phone
      left join contacts c on c.workspace_id = ${workspaceId} and c.phone_number = v.phone
      left join messages m on m.workspace_id = ${workspaceId} and m.wamid = v.answers
    ), ins as (
      insert into inbound_messages (id, workspace_id, sender_id, contact_id, phone_number, provider_message_id, kind, text, payload,
        media, location, reaction, context_provider_message_id, reply_to_message_id, campaign_id, received_at)
      select distinct on (provider_message_id) id, ${workspaceId}, ${senderId}, cid, phone, provider_message_id, kind, text, payload,
        media, location, reaction, context, reply_to, campaign_id, received_at
      from linked order by provider_message_id, ord
      on conflict (workspace_id, provider_message_id) do nothing
      returning id, provider_message_id
    )
    select l.ord, coalesce(ins.id, e.id, l.id) as id, l.provider_message_id, (ins.id is not null and ins.id = l.id) as stored,
      coalesce(e.contact_id, l.cid) as contact_id, l.contact_created, coalesce(e.reply_to_message_id, l.reply_to) as reply_to,
      coalesce(e.campaign_id, l.campaign_id) as campaign_id,
      (select throughput_per_second from senders where id = ${senderId}) as per_second,
      (select opt_out_keywords from workspaces where id = ${workspaceId}) as keywords
    from linked l
    left join ins on ins.provider_message_id = l.provider_message_id
    left join inbound_messages e on e.workspace_id = ${workspaceId} and e.provider_message_id = l.provider_message_id
    order by l.ord`,
  );

  // A contact created by a concurrent delivery in the meantime is invisible to the statement: link it now.
  const unlinked = rows.filter((row) => row.stored && row.contact_id === null).map((row) => row.id);
  if (unlinked.length > 0) {
    const linked = await queryRows<{ id: string; contact_id: string }>(
      db,
      sql`update inbound_messages i set contact_id = c.id from contacts c
        where i.id in (select jsonb_array_elements_text(${JSON.stringify(unlinked)}::jsonb))
          and c.workspace_id = i.workspace_id and c.phone_number = i.phone_number
        returning i.id, c.id as contact_id`,
    );
    for (const link of linked) {
      const row = rows.find((candidate) => candidate.id === link.id);
      if (row) row.contact_id = link.contact_id;
    }
  }

  // A message repeated within one batch is stored once: only its first occurrence reads as stored.
  const stored = rows.filter((row) => row.stored).length;
  const perSecond = Number(rows[0]?.per_second ?? 0);
  if (stored > 0 && perSecond > 0) {
    const limiter = options.limiter ?? createSharedThroughputLimiter(db);
    await limiter.reserve(senderLane(senderId), perSecond, stored, (options.now ?? Date.now)());
  }

  const fresh: StoredInbound[] = rows
    .filter((row) => row.stored && row.contact_id !== null)
    .map((row) => {
      const message = messages[row.ord]!;
      const reaction = message.reaction && { emoji: message.reaction.emoji, wamid: message.reaction.providerMessageId };
      return {
        id: row.id,
        contactId: row.contact_id!,
        receivedAt: message.at,
        preview: toStorableText(inboundSummary({ ...message, reaction })),
        replyToMessageId: row.reply_to,
        campaignId: row.campaign_id,
      };
    });
  const attributed = await attributeReplies(db, scope, fresh);
  await touchConversations(
    db,
    scope,
    fresh.map((message) => ({ ...message, campaignId: message.campaignId ?? attributed.get(message.id) ?? null })),
  );

  const keywords = rows[0]?.keywords ?? [];
  const recorded: RecordedInbound[] = [];
  // Only a message still inside its customer-service window is answered (a webhook retried for a day is not).
  const now = (options.now ?? Date.now)();
  const answerable: AnswerableMessage[] = [];
  for (const row of rows) {
    const message = messages[row.ord]!;
    const match = consentOf(message, keywords);
    if (row.stored && row.contact_id && now - message.at.getTime() < SERVICE_WINDOW_MS) answerable.push({ message, contactId: row.contact_id, consentKeyword: match !== null });
    const consent: ReplyOutcome = match
      ? await applyConsentReply(db, workspaceId, { phone: message.from, text: message.text ?? match.keyword, match, messageId: message.providerMessageId, at: message.at }, keywords)
      : { action: "none" };
    recorded.push({
      id: row.id,
      providerMessageId: row.provider_message_id,
      stored: row.stored,
      contactId: row.contact_id,
      contactCreated: Boolean(row.contact_created),
      replyToMessageId: row.reply_to,
      campaignId: row.campaign_id ?? attributed.get(row.id) ?? null,
      consent,
    });
  }
  const autoReplies = await answerAutomatically(db, scope, answerable, new Date(now));
  return { stored, duplicates: messages.length - stored, autoReplies, messages: recorded };
}
