// Which campaign messages are stored `skipped` (`messageSkips`: opted out, over the frequency cap), and
// the cap's count under its lock. Every path that decides whether a campaign message is
// over the cap (a trigger request when it is accepted, a journey's send step, a bulk message when it
// is claimed: lib/messaging/send-policies.ts) takes the lock per (workspace, phone) first, in the
// transaction that then stores or skips the message, so two decisions for one contact at the same
// moment take turns and the second counts the first's message.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { lockKeysForTransaction } from "@/db/locks";
import { queryRows } from "@/db/rows";
import type { OptOutMethod } from "@/db/schema";
import { OPTED_OUT_CODE, optOutReason } from "@/lib/contacts/opt-out";
import { FREQUENCY_CAP_CODE, frequencyCapReason, type FrequencyCap } from "./send-policy";

/** Takes the lock of each phone's cap in the workspace (held until the transaction ends). */
export function lockFrequencyCaps(tx: Executor, workspaceId: string, phones: readonly string[]): Promise<void> {
  return lockKeysForTransaction(tx, `frequency_cap:${workspaceId}`, phones);
}

/** In a transaction: locks the phones, then counts their messages inside the cap's period (phone → count). */
export async function lockAndCountCapped(
  tx: Executor,
  input: { workspaceId: string; campaignId: string; cap: FrequencyCap; phones: readonly string[] },
): Promise<Map<string, number>> {
  const phones = [...new Set(input.phones)];
  await lockFrequencyCaps(tx, input.workspaceId, phones);
  const rows = await queryRows<{ phone: string; n: number }>(
    tx,
    sql`select ct.phone_number as phone, count(*)::int as n
      from contacts ct
      join messages m on m.contact_id = ct.id
      where ct.workspace_id = ${input.workspaceId}
        and ct.phone_number in (select jsonb_array_elements_text(${JSON.stringify(phones)}::jsonb))
        and coalesce(m.sent_at, m.created_at) >= now() - make_interval(hours => ${input.cap.periodHours})
        ${input.cap.scope === "campaign" ? sql`and m.campaign_id = ${input.campaignId}` : sql``}
        and m.source in ('trigger', 'bulk') and m.status in ('queued', 'sending', 'sent', 'delivered', 'read')
      group by ct.phone_number`,
  );
  return new Map(rows.map((row) => [row.phone, Number(row.n)]));
}

export interface MessageSkip {
  errorCode: string;
  errorReason: string;
}

/** What the skip rule reads of a stored contact. */
export interface SkipContact {
  opted_out_at: string | null;
  opt_out_method: OptOutMethod | null;
  opt_out_detail: string | null;
}

/**
 * Per message or run (in the request's order, by phone): why it is skipped, or null to go on. A contact
 * who opted out, when the campaign respects opt-outs; over the cap, counting what the contact got in
 * the period (`counted`, from `lockAndCountCapped`) and this request's earlier messages to them.
 */
export function messageSkips(
  phones: readonly string[],
  policy: { stored: Map<string, SkipContact>; respectOptOut: boolean; cap?: FrequencyCap | null; counted?: Map<string, number> },
): (MessageSkip | null)[] {
  const counted = new Map(policy.counted);
  return phones.map((phone) => {
    const contact = policy.stored.get(phone);
    if (policy.respectOptOut && contact?.opted_out_at) {
      return { errorCode: OPTED_OUT_CODE, errorReason: optOutReason({ optedOutAt: contact.opted_out_at, method: contact.opt_out_method, detail: contact.opt_out_detail }) };
    }
    if (policy.cap) {
      const already = counted.get(phone) ?? 0;
      if (already >= policy.cap.limit) return { errorCode: FREQUENCY_CAP_CODE, errorReason: frequencyCapReason(policy.cap) };
      counted.set(phone, already + 1);
    }
    return null;
  });
}
