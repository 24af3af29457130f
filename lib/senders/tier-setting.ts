// The messaging limit (tier) people choose in Settings → WhatsApp, saved with the rest of the form,
// and kept when Test connection finds no limit reported by WhatsApp.
import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders } from "@/db/schema";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import { campaignSenderRow, shareMessagingTier, testSenderConnection, toSenderView, updateSenderSettings, type ConnectionTestResult, type SenderView } from "./service";
import { senderSettingsSchema, whatsappSenderSettingsSchema, type MessagingTier, type SenderSettingsInput } from "./schemas";

/**
 * Saves a sender's form (the default sender's without `senderId`): credentials through the sender
 * service, then the chosen limit (shared by the business account's numbers), in one transaction.
 */
export async function saveSenderSettings(
  db: Executor,
  workspaceId: string,
  input: SenderSettingsInput,
  actor: AuditActor = SYSTEM_ACTOR,
  options: { senderId?: string } = {},
): Promise<SenderView> {
  const settings = senderSettingsSchema.parse(input);
  return db.transaction(async (tx) => {
    const view = await updateSenderSettings(tx, workspaceId, settings, actor, options);
    if (settings.provider !== "whatsapp" || settings.messagingTier === undefined) return view;
    return toSenderView(await setMessagingTier(tx, workspaceId, view.id, settings.messagingTier, actor));
  });
}

async function setMessagingTier(db: Executor, workspaceId: string, senderId: string, tier: MessagingTier | null, actor: AuditActor) {
  const row = await campaignSenderRow(db, workspaceId, senderId);
  if (row.messagingTier === tier) return row;
  await shareMessagingTier(db, row, tier);
  const [updated] = await db.update(senders).set({ messagingTier: tier, updatedAt: new Date() }).where(eq(senders.id, row.id)).returning();
  await recordAudit(db, {
    workspaceId,
    actor,
    action: "sender.settings_changed",
    targetType: "sender",
    targetId: row.id,
    metadata: { changed: ["messagingTier"], messagingTier: tier, previousMessagingTier: row.messagingTier },
  });
  return updated ?? row;
}

/**
 * Test connection with the form as it is: validated exactly as Save validates it, so an id that
 * Save would refuse fails here too. A limit WhatsApp reports replaces the stored one; when it reports
 * none, the limit chosen by hand stays.
 */
export async function testSenderForm(db: Executor, workspaceId: string, input: unknown, options: { senderId?: string } = {}): Promise<ConnectionTestResult> {
  const form = whatsappSenderSettingsSchema.parse({ ...(input as object), provider: "whatsapp" });
  const before = await campaignSenderRow(db, workspaceId, options.senderId);
  const result = await testSenderConnection(db, workspaceId, { phoneNumberId: form.phoneNumberId, accessToken: form.accessToken }, { senderId: before.id });
  if (result.ok && result.messagingTier === null && before.phoneNumberId === form.phoneNumberId && before.messagingTier !== null) {
    await db.update(senders).set({ messagingTier: before.messagingTier }).where(eq(senders.id, before.id));
  }
  return result;
}
