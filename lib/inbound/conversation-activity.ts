// What a stored inbound message does beyond itself: it opens (or reopens) the conversation of its
// contact and number, moves that conversation's customer-service window and unread count, and
// marks the campaign message it answers as replied (the campaign's `replied` step).
//
// Statements: one for the conversations (upsert, reopened events), one for the attribution.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { newId } from "@/lib/crypto/random";

/** One newly stored inbound message, as the conversation and the attribution need it. */
export interface StoredInbound {
  id: string;
  contactId: string;
  receivedAt: Date;
  /** One line of it (`inboundSummary`), for the inbox list. */
  preview: string;
  /** The outbound message it quotes (WhatsApp's context), when found in the workspace. */
  replyToMessageId: string | null;
  campaignId: string | null;
}

const PREVIEW_MAX = 200;

/**
 * Upserts the conversation of each contact on `senderId`: the newest message's time and line, the
 * window's start (`last_inbound_at`, the newest inbound message), unread + the messages stored, open
 * again (a `reopened` event when it was closed), and the campaign of the first reply that named one.
 * Returns the ids of the conversations touched.
 */
export async function touchConversations(db: Executor, scope: { workspaceId: string; senderId: string }, stored: readonly StoredInbound[]): Promise<string[]> {
  if (stored.length === 0) return [];
  // One row per contact: ON CONFLICT cannot change the same conversation twice in one statement.
  const byContact = new Map<string, { contact_id: string; id: string; at: string; preview: string; campaign_id: string | null; n: number }>();
  for (const message of [...stored].sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())) {
    const current = byContact.get(message.contactId);
    byContact.set(message.contactId, {
      contact_id: message.contactId,
      id: current?.id ?? newId("cnv"),
      at: message.receivedAt.toISOString(),
      preview: message.preview.slice(0, PREVIEW_MAX),
      campaign_id: current?.campaign_id ?? message.campaignId,
      n: (current?.n ?? 0) + 1,
    });
  }
  const json = JSON.stringify([...byContact.values()]);
  const rows = await queryRows<{ id: string; reopened: boolean }>(
    db,
    sql`with v as (
      select * from jsonb_to_recordset(${json}::jsonb) as v(contact_id text, id text, at timestamptz, preview text, campaign_id text, n int)
    ), before as (
      select c.id, c.status from conversations c join v on c.workspace_id = ${scope.workspaceId} and c.contact_id = v.contact_id and c.sender_id = ${scope.senderId}
    ), up as (
      insert into conversations as c (id, workspace_id, contact_id, sender_id, campaign_id, last_inbound_at, last_activity_at, last_preview, last_direction, unread)
      select id, ${scope.workspaceId}, contact_id, ${scope.senderId}, campaign_id, at, at, preview, 'inbound', n from v
      on conflict (workspace_id, contact_id, sender_id) do update set
        last_inbound_at = greatest(c.last_inbound_at, excluded.last_inbound_at),
        last_preview = case when excluded.last_activity_at >= c.last_activity_at then excluded.last_preview else c.last_preview end,
        last_direction = case when excluded.last_activity_at >= c.last_activity_at then 'inbound' else c.last_direction end,
        last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at),
        unread = c.unread + excluded.unread,
        status = 'open',
        closed_at = null,
        campaign_id = coalesce(c.campaign_id, excluded.campaign_id),
        updated_at = now()
      returning c.id
    ), reopened as (
      insert into conversation_events (id, conversation_id, workspace_id, kind)
      select 'cev_' || replace(gen_random_uuid()::text, '-', ''), b.id, ${scope.workspaceId}, 'reopened' from before b where b.status = 'closed'
      returning conversation_id
    )
    select up.id, exists (select 1 from reopened r where r.conversation_id = up.id) as reopened from up`,
  );
  return rows.map((row) => row.id);
}

/**
 * The campaign's `replied` step: each newly stored message marks the campaign message it answers,
 * first reply only. That is the message it quotes when that one is a campaign message sent on the
 * same number within the workspace's attribution window before it, else the latest such message to
 * the contact. The inbound message then names that campaign (it shows in the campaign's logs and
 * Replies), unless it already named the quoted message's. Returns the campaign each message was
 * attributed to, by inbound message id.
 */
export async function attributeReplies(db: Executor, scope: { workspaceId: string; senderId: string }, stored: readonly StoredInbound[]): Promise<Map<string, string>> {
  if (stored.length === 0) return new Map();
  const json = JSON.stringify(stored.map((m) => ({ id: m.id, contact_id: m.contactId, at: m.receivedAt.toISOString(), quoted: m.replyToMessageId })));
  const rows = await queryRows<{ inbound_id: string; campaign_id: string }>(
    db,
    sql`with v as (
      select * from jsonb_to_recordset(${json}::jsonb) as v(id text, contact_id text, at timestamptz, quoted text)
    ), w as (
      select make_interval(hours => reply_attribution_hours) as span from workspaces where id = ${scope.workspaceId}
    ), target as (
      select v.id as inbound_id, v.at, t.id as message_id, t.campaign_id
      from v cross join w
      cross join lateral (
        select m.id, m.campaign_id from messages m
        where m.contact_id = v.contact_id and m.workspace_id = ${scope.workspaceId} and m.sender_id = ${scope.senderId}
          and m.source in ('trigger', 'bulk') and m.sent_at is not null
          and m.sent_at <= v.at and m.sent_at > v.at - w.span
        order by (m.id = v.quoted) desc, m.sent_at desc
        limit 1
      ) t
    ), marked as (
      update messages m set replied_at = first.at, updated_at = now()
      from (select distinct on (message_id) message_id, at from target order by message_id, at) first
      where m.id = first.message_id and m.replied_at is null
      returning m.id
    ), relinked as (
      update inbound_messages i set campaign_id = target.campaign_id
      from target where i.id = target.inbound_id and i.campaign_id is null
      returning i.id
    )
    select inbound_id, campaign_id from target`,
  );
  return new Map(rows.map((row) => [row.inbound_id, row.campaign_id]));
}
