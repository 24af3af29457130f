// Which of a trigger request's messages are stored `skipped`: the contact opted out, or is over the
// campaign's frequency cap, decided when the request is accepted (the cap counted under its lock in
// the transaction that stores the request's messages: lib/campaigns/frequency-cap.ts).
import { FREQUENCY_CAP_CODE, frequencyCapReason, type FrequencyCap } from "@/lib/campaigns/send-policy";
import { OPTED_OUT_CODE, optOutReason } from "@/lib/contacts/opt-out";
import type { TriggerContextRow } from "./context";

export interface MessageSkip {
  errorCode: string;
  errorReason: string;
}

/**
 * Per message or run (in the request's order, by phone): why it is skipped, or null to go on. A contact
 * who opted out, when the campaign respects opt-outs; over the cap, counting what the contact got in
 * the period (`counted`, from `lockAndCountCapped`) and this request's earlier messages to them.
 */
export function messageSkips(
  phones: readonly string[],
  policy: { stored: Map<string, TriggerContextRow["contacts"][number]>; respectOptOut: boolean; cap?: FrequencyCap | null; counted?: Map<string, number> },
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
