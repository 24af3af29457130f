// The messaging limit (tier) people choose in Settings → WhatsApp, saved with the rest of the form,
// and kept when Test connection finds no limit reported by WhatsApp.
import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders } from "@/db/schema";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import { getSenderRow, testSenderConnection, toSenderView, updateSenderSettings, type ConnectionTestResult, type SenderView } from "./service";
import { senderSettingsSchema, whatsappSenderSettingsSchema, type MessagingTier, type SenderSettingsInput } from "./schemas";

/** Saves the sender form: credentials through the sender service, then the chosen limit, in one transaction. */
export async function saveSenderSettings(db: Executor, workspaceId: string, input: SenderSettingsInput, actor: AuditActor = SYSTEM_ACTOR): Promise<SenderView> {
  const settings = senderSettingsSchema.parse(input);
  return db.transaction(async (tx) => {
    const view = await updateSenderSettings(tx, workspaceId, settings, actor);
    if (settings.provider !== "whatsapp" || settings.messagingTier === undefined) return view;
    return toSenderView(await setMessagingTier(tx, workspaceId, settings.messagingTier, actor));
  });
}

async function setMessagingTier(db: Executor, workspaceId: string, tier: MessagingTier | null, actor: AuditActor) {
  const row = await getSenderRow(db, workspaceId);
  if (row.messagingTier === tier) return row;
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
export async function testSenderForm(db: Executor, workspaceId: string, input: unknown): Promise<ConnectionTestResult> {
  const form = whatsappSenderSettingsSchema.parse({ ...(input as object), provider: "whatsapp" });
  const before = await getSenderRow(db, workspaceId);
  const result = await testSenderConnection(db, workspaceId, { phoneNumberId: form.phoneNumberId, accessToken: form.accessToken });
  if (result.ok && result.messagingTier === null && before.phoneNumberId === form.phoneNumberId && before.messagingTier !== null) {
    await db.update(senders).set({ messagingTier: before.messagingTier }).where(eq(senders.id, before.id));
  }
  return result;
}
