// The sandbox's audience answers: a few contacts of each sandbox bulk campaign reply once they have
// read it (questions, and one STOP), so the inbox, the replied step and the opt-out path are alive
// in a demo without a phone. Stored by the same code as a real webhook delivery. Only in workspaces
// that ask for it (`sandbox_audience_replies`, Settings → Workspace; on in the demo workspace): a
// simulated STOP must never opt out someone's real customer imported before WhatsApp is connected.
//
// Who answers: the contacts at positions 1, 3, 6 and 10 of the campaign's audience (bulk message ids
// are the campaign's prefix plus the position in hex, lib/bulk/snapshot.ts), so each pass looks up
// at most four messages per campaign by primary key however large the campaign is. Idempotent: a
// reply's id is derived from the message it answers, and an answered message is skipped.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { SANDBOX_MESSAGE_ID_PREFIX, SANDBOX_SIMULATION_WINDOW_MS, sandboxInboundMessage } from "@/lib/channels";
import { recordInboundMessages } from "./record";

/** What the answering contacts write, by their position in the audience. */
export const SANDBOX_CAMPAIGN_REPLIES: Readonly<Record<number, string>> = {
  1: "Is it available in blue?",
  3: "When does the offer end?",
  6: "STOP",
  10: "Do you deliver on Saturdays?",
};

/** A reply comes this long after the message was read. */
export const SANDBOX_REPLY_AFTER_READ_MS = 2_000;

interface Answerable {
  id: string;
  workspace_id: string;
  sender_id: string;
  phone_number: string;
  contact_name: string | null;
  wamid: string;
  read_at: Date | string;
  position: number;
}

/** Records the due replies of recent sandbox bulk campaigns; returns how many were stored. */
export async function simulateSandboxCampaignReplies(db: Executor, now: Date): Promise<number> {
  const positions = Object.keys(SANDBOX_CAMPAIGN_REPLIES).map(Number);
  const since = new Date(now.getTime() - SANDBOX_SIMULATION_WINDOW_MS).toISOString();
  const readBefore = new Date(now.getTime() - SANDBOX_REPLY_AFTER_READ_MS).toISOString();
  const rows = await queryRows<Answerable>(
    db,
    sql`with recent as (
      select c.id from campaigns c
      where c.kind = 'bulk' and c.status in ('sending', 'completed') and c.launched_at > ${since}::timestamptz
        and c.workspace_id in (select s.workspace_id from senders s where s.provider = 'sandbox')
        and c.workspace_id in (select w.id from workspaces w where w.sandbox_audience_replies)
    ), prefixed as (
      select r.id, (select left(m.id, length(m.id) - 8) from messages m where m.campaign_id = r.id and m.source = 'bulk' limit 1) as prefix from recent r
    ), targets as (
      select p.prefix || lpad(to_hex(u.position), 8, '0') as id, u.position from prefixed p cross join unnest(${`{${positions.join(",")}}`}::int[]) as u(position)
      where p.prefix is not null
    )
    select m.id, m.workspace_id, m.sender_id, m.phone_number, ct.name as contact_name, m.wamid, m.read_at, t.position
    from targets t
    join messages m on m.id = t.id
    join senders s on s.id = m.sender_id and s.provider = 'sandbox'
    left join contacts ct on ct.id = m.contact_id
    where m.status = 'read' and m.replied_at is null and m.read_at <= ${readBefore}::timestamptz and m.wamid like ${`${SANDBOX_MESSAGE_ID_PREFIX}%`}`,
  );
  let stored = 0;
  for (const row of rows) {
    const message = {
      ...sandboxInboundMessage(
        { kind: "text", text: SANDBOX_CAMPAIGN_REPLIES[row.position]! },
        { from: row.phone_number, profileName: row.contact_name, answers: row.wamid, at: new Date(new Date(row.read_at).getTime() + SANDBOX_REPLY_AFTER_READ_MS) },
      ),
      providerMessageId: `${SANDBOX_MESSAGE_ID_PREFIX}REPLY.${row.id}`,
    };
    const outcome = await recordInboundMessages(db, { workspaceId: row.workspace_id, senderId: row.sender_id }, [message]);
    stored += outcome.stored;
  }
  return stored;
}
