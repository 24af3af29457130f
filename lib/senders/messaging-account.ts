// The account a sender's sends count against for WhatsApp's daily messaging limit. Meta counts that
// limit per business portfolio, shared by all its numbers; a sender names its WhatsApp business
// account (WABA), so the limit is counted per WABA. A sender's id changes when its provider or phone
// number changes (lib/senders/service.ts), so every id that sent for an account is recorded in
// `sender_accounts` and usage is counted over all of them: re-saving the sender never resets it.
// The sandbox has no limit and reaches no one; its "account" is its workspace, so its simulated
// sends never count against a WABA.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { senderAccounts, type senders } from "@/db/schema";

export type SenderAccountFields = Pick<typeof senders.$inferSelect, "id" | "provider" | "wabaId" | "workspaceId">;

/** `waba:<id>` for a WhatsApp sender with its business account id; `workspace:<id>` for the sandbox (and a sender not set up yet). */
export function messagingAccount(sender: Omit<SenderAccountFields, "id">): string {
  return sender.provider === "whatsapp" && sender.wabaId ? `waba:${sender.wabaId}` : `workspace:${sender.workspaceId}`;
}

/** Records that this sender id sends for its account (kept after the id is replaced: its sends still count). */
export async function recordSenderAccount(db: Executor, sender: SenderAccountFields): Promise<void> {
  await db.insert(senderAccounts).values({ account: messagingAccount(sender), senderId: sender.id }).onConflictDoNothing();
}

/**
 * Holds the account's messaging-limit lock until the transaction ends, so launches and releases of
 * held messages on the account's numbers decide one after another, each seeing what the one before
 * queued (two launches at once each saw the whole limit free). Also records the sender's account.
 * One statement; call it inside a transaction.
 */
export async function lockMessagingAccount(tx: Executor, sender: SenderAccountFields): Promise<void> {
  const account = messagingAccount(sender);
  await queryRows(
    tx,
    sql`with recorded as (
        insert into sender_accounts (account, sender_id) values (${account}, ${sender.id}) on conflict do nothing returning 1
      )
      select 1 as locked from (select pg_advisory_xact_lock(hashtextextended(${`messaging_limit:${account}`}::text, 0))) l`,
  );
}

/**
 * The sender ids whose sends count for the sender's account (every id recorded for it, every
 * current number of the business account, and its own), as an array: `sender_id = any (…)` is an
 * index condition, where `in (select …)` became a hash join over every message (150 ms instead of
 * 30 on 200,000 rows).
 */
export function accountSenderIdsSql(sender: SenderAccountFields) {
  const numbers =
    sender.provider === "whatsapp" && sender.wabaId ? sql` union select id from senders where provider = 'whatsapp' and waba_id = ${sender.wabaId}` : sql``;
  return sql`array(select ${sender.id}::text union select sender_id from sender_accounts where account = ${messagingAccount(sender)}${numbers})`;
}
