// Campaign send policies at the moment of sending (lib/campaigns/send-policy.ts), applied to every
// claim before anything is sent: a message inside its contact's quiet hours goes back to `queued`
// until they end (the attempt is not counted); a bulk message to a contact over the frequency cap
// is `skipped` with error `frequency_cap` (trigger messages are capped when accepted). Test sends,
// and rows reclaimed after an earlier attempt may have reached WhatsApp, are left as they are.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { lockFrequencyCaps } from "@/lib/campaigns/frequency-cap";
import { contactTimeZone, quietHoursEnd } from "@/lib/campaigns/quiet-hours";
import { FREQUENCY_CAP_CODE, frequencyCapReason, parseStoredSendPolicy, type FrequencyCap, type SendPolicy } from "@/lib/campaigns/send-policy";
import type { ClaimedMessage } from "./claims";

const list = (values: string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);

type CampaignClaim = Extract<ClaimedMessage, { campaignId: string }>;

/** Whether a policy may hold this message back: a first send of a campaign (not a test, not a conversation's reply). */
const subjectToPolicy = (message: ClaimedMessage): message is CampaignClaim => message.source !== "test" && message.source !== "reply" && message.errorCode !== "outcome_unknown" && !message.inFlightAt && !message.providerMessageId;

/** The claimed messages that may be sent now; the others are deferred or skipped here. */
export async function applySendPolicies(db: Executor, claimed: ClaimedMessage[], now: Date): Promise<ClaimedMessage[]> {
  const candidates = claimed.filter(subjectToPolicy);
  if (candidates.length === 0) return claimed;
  const policies = policiesOf(candidates);
  if (policies.size === 0) return claimed;

  const held = new Set<string>();
  const withQuietHours = candidates.filter((m) => policies.get(m.campaignId)?.quietHours);
  if (withQuietHours.length > 0) {
    const zones = await contactZones(db, withQuietHours);
    const deferrals = withQuietHours.flatMap((message) => {
      const until = quietHoursEnd(policies.get(message.campaignId)!.quietHours!, now, zones(message));
      return until ? [{ message, until }] : [];
    });
    if (deferrals.length > 0) {
      await db.execute(sql`
        update messages set status = 'queued', attempts = messages.attempts - 1, locked_until = null, next_attempt_at = v.until, updated_at = now()
        from (values ${sql.join(deferrals.map((d) => sql`(${d.message.id}, ${d.until.toISOString()}::timestamptz, ${d.message.lease.toISOString()}::timestamptz)`), sql`, `)}) as v(id, until, lease)
        where messages.id = v.id and messages.locked_until = v.lease`);
      for (const { message } of deferrals) held.add(message.id);
    }
  }

  const capped = candidates.filter((m) => m.source === "bulk" && m.contactId && !held.has(m.id) && policies.get(m.campaignId)?.frequencyCap);
  if (capped.length > 0) for (const id of await skipOverCap(db, capped, policies)) held.add(id);
  return held.size === 0 ? claimed : claimed.filter((m) => !held.has(m.id));
}

/**
 * Skips the capped messages whose contact is over the cap; returns their ids. Counted and skipped
 * in one transaction after the cap's lock per (workspace, phone) (lib/campaigns/frequency-cap.ts):
 * two passes that claimed the same contact at once (two campaigns under a workspace-wide cap) take
 * turns, and the second counts the first's message as sending or skipped, so one of them reaches the
 * contact, not both and not neither.
 */
async function skipOverCap(db: Executor, capped: CampaignClaim[], policies: Map<string, SendPolicy>): Promise<string[]> {
  return db.transaction(async (tx) => {
    for (const workspaceId of [...new Set(capped.map((m) => m.workspaceId))].sort()) {
      await lockFrequencyCaps(tx, workspaceId, capped.filter((m) => m.workspaceId === workspaceId).map((m) => m.phoneNumber));
    }
    const skipped: string[] = [];
    for (const [campaignId, cap] of new Map(capped.map((m) => [m.campaignId, policies.get(m.campaignId)!.frequencyCap!]))) {
      const over = await overCap(tx, capped.filter((m) => m.campaignId === campaignId), cap, campaignId);
      if (over.length === 0) continue;
      await tx.execute(sql`
        update messages set status = 'skipped', attempts = messages.attempts - 1, locked_until = null, error_code = ${FREQUENCY_CAP_CODE},
          error_reason = ${frequencyCapReason(cap)}, updated_at = now()
        where id in (${list(over.map((m) => m.id))}) and locked_until = ${over[0]!.lease.toISOString()}::timestamptz`);
      skipped.push(...over.map((m) => m.id));
    }
    return skipped;
  });
}

/** The policies that hold something back, per campaign, from what each claimed row carries. */
function policiesOf(claimed: CampaignClaim[]): Map<string, SendPolicy> {
  const policies = new Map<string, SendPolicy>();
  for (const message of claimed) {
    if (policies.has(message.campaignId)) continue;
    const raw = typeof message.sendPolicy === "string" ? (JSON.parse(message.sendPolicy) as unknown) : message.sendPolicy;
    const policy = parseStoredSendPolicy(raw);
    if (policy.quietHours || policy.frequencyCap) policies.set(message.campaignId, policy);
  }
  return policies;
}

/** Each message's contact time zone: the contact's `timezone` attribute, else a guess from the phone. */
async function contactZones(db: Executor, claimed: ClaimedMessage[]): Promise<(message: ClaimedMessage) => string> {
  const contactIds = [...new Set(claimed.flatMap((m) => (m.contactId ? [m.contactId] : [])))];
  const rows = contactIds.length
    ? await queryRows<{ id: string; timezone: string | null }>(db, sql`select id, attributes ->> 'timezone' as timezone from contacts where id in (${list(contactIds)})`)
    : [];
  const attributeZone = new Map(rows.map((row) => [row.id, row.timezone]));
  return (message) => contactTimeZone(message.phoneNumber, { timezone: message.contactId ? attributeZone.get(message.contactId) : null });
}

/**
 * The messages whose contact already got `cap.limit` messages in the period: sent, being sent by
 * another pass, or a trigger message accepted and waiting to go out (a trigger request counts the
 * queued bulk messages the same way, so whichever was accepted first reaches the contact).
 */
async function overCap(db: Executor, claimed: ClaimedMessage[], cap: FrequencyCap, campaignId: string): Promise<ClaimedMessage[]> {
  const rows = await queryRows<{ contact_id: string; n: number }>(
    db,
    sql`select contact_id, count(*)::int as n from messages
        where contact_id in (${list(claimed.map((m) => m.contactId!))})
          and id not in (${list(claimed.map((m) => m.id))})
          and coalesce(sent_at, created_at) >= now() - make_interval(hours => ${cap.periodHours})
          and source in ('trigger', 'bulk')
          and (status in ('sending', 'sent', 'delivered', 'read') or (status = 'queued' and source = 'trigger'))
          ${cap.scope === "campaign" ? sql`and campaign_id = ${campaignId}` : sql``}
        group by contact_id`,
  );
  const counts = new Map(rows.map((row) => [row.contact_id, Number(row.n)]));
  return claimed.filter((m) => (counts.get(m.contactId!) ?? 0) >= cap.limit);
}
