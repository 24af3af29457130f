// Test data for messaging: campaigns, queued messages and WhatsApp senders, written directly.
import type { InboundMessage } from "@/lib/channels/types";
import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { campaigns, messages, senders, type MessageStatus } from "@/db/schema";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { encryptSecret } from "@/lib/crypto/secrets";

/** Secrets at rest need a key; tests that store WhatsApp credentials get a fixed one. */
export async function createTestCampaign(workspaceId: string, overrides: { name?: string } = {}): Promise<string> {
  const db = await getDb();
  const id = newId("cmp");
  await db.insert(campaigns).values({ id, workspaceId, name: overrides.name ?? "Test campaign", status: "active" });
  return id;
}

export const TEST_TEMPLATE_PAYLOAD = {
  template: {
    name: "order_update",
    language: { code: "en_US" },
    components: [{ type: "body", parameters: [{ type: "text", text: "Jessica" }] }],
  },
};

export interface TestMessageInput {
  workspaceId: string;
  campaignId?: string;
  phoneNumber?: string;
  payload?: Record<string, unknown>;
  status?: MessageStatus;
  providerMessageId?: string | null;
  nextAttemptAt?: Date;
  lockedUntil?: Date | null;
  /** A claim's owner (lib/messaging/owner.ts) and in-flight mark, for rows a dispatching process left behind. */
  claimOwner?: number | null;
  inFlightAt?: Date | null;
  attempts?: number;
  sentAt?: Date | null;
  createdAt?: Date;
  senderId?: string | null;
  contactId?: string | null;
}

/** Inserts one message (queued and due now unless overridden); returns its id. */
export async function createTestMessage(input: TestMessageInput): Promise<string> {
  const db = await getDb();
  const id = newId("msg");
  await db.insert(messages).values({
    id,
    workspaceId: input.workspaceId,
    campaignId: input.campaignId ?? (await createTestCampaign(input.workspaceId)),
    phoneNumber: input.phoneNumber ?? "+14155550126",
    templateName: "order_update",
    templateLanguage: "en_US",
    renderedText: "Hi Jessica, your order is on its way.",
    payload: input.payload ?? TEST_TEMPLATE_PAYLOAD,
    status: input.status ?? "queued",
    providerMessageId: input.providerMessageId ?? null,
    nextAttemptAt: input.nextAttemptAt ?? new Date(),
    lockedUntil: input.lockedUntil ?? null,
    claimOwner: input.claimOwner ?? null,
    inFlightAt: input.inFlightAt ?? null,
    attempts: input.attempts ?? 0,
    sentAt: input.sentAt ?? null,
    ...(input.senderId !== undefined ? { senderId: input.senderId } : {}),
    ...(input.contactId !== undefined ? { contactId: input.contactId } : {}),
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
  });
  return id;
}

/** Many due messages at once (benchmarks, throughput tests). */
export async function createTestMessages(
  workspaceId: string,
  count: number,
  options: { phonePrefix?: string; nextAttemptAt?: Date } = {},
): Promise<string[]> {
  const phonePrefix = options.phonePrefix ?? "+1415555";
  const db = await getDb();
  const campaignId = await createTestCampaign(workspaceId);
  const ids: string[] = [];
  for (let offset = 0; offset < count; offset += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - offset) }, (_, i) => {
      const id = newId("msg");
      ids.push(id);
      return {
        id,
        workspaceId,
        campaignId,
        phoneNumber: `${phonePrefix}${String((offset + i) % 10_000).padStart(4, "0")}`,
        templateName: "order_update",
        templateLanguage: "en_US",
        renderedText: "Hi Jessica, your order is on its way.",
        payload: TEST_TEMPLATE_PAYLOAD,
        ...(options.nextAttemptAt ? { nextAttemptAt: options.nextAttemptAt } : {}),
      };
    });
    await db.insert(messages).values(rows);
  }
  return ids;
}

export interface TestWhatsAppSender {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

/** Switches the workspace's sender to the Cloud API with fresh credentials; returns them. */
export async function connectTestWhatsAppSender(
  workspaceId: string,
  overrides: Partial<TestWhatsAppSender> & { throughputPerSecond?: number } = {},
): Promise<TestWhatsAppSender> {
  const db = await getDb();
  const sender: TestWhatsAppSender = {
    phoneNumberId: overrides.phoneNumberId ?? String(100_000_000_000 + Math.floor(Math.random() * 1e11)),
    wabaId: overrides.wabaId ?? String(200_000_000_000 + Math.floor(Math.random() * 1e11)),
    accessToken: overrides.accessToken ?? `EAAG${randomBase62(40)}`,
    appSecret: overrides.appSecret ?? randomBase62(32),
    verifyToken: overrides.verifyToken ?? randomBase62(24),
  };
  await db
    .update(senders)
    .set({
      provider: "whatsapp",
      phoneNumberId: sender.phoneNumberId,
      wabaId: sender.wabaId,
      displayPhoneNumber: "+1 555 0100",
      accessTokenEncrypted: encryptSecret(sender.accessToken),
      appSecretEncrypted: encryptSecret(sender.appSecret),
      verifyTokenEncrypted: encryptSecret(sender.verifyToken),
      ...(overrides.throughputPerSecond ? { throughputPerSecond: overrides.throughputPerSecond } : {}),
    })
    .where(eq(senders.workspaceId, workspaceId));
  return sender;
}

export async function setSenderThroughput(workspaceId: string, perSecond: number): Promise<void> {
  const db = await getDb();
  await db.update(senders).set({ throughputPerSecond: perSecond }).where(eq(senders.workspaceId, workspaceId));
}

export async function getTestMessage(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(messages).where(eq(messages.id, id));
  return row!;
}

/** A text message from `from`, as a channel reports it (a fresh provider id each call). */
export function testInboundMessage(from: string, overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    providerMessageId: `wamid.IN${randomBase62(16)}`,
    from,
    profileName: null,
    at: new Date(),
    kind: "text",
    text: "Hello",
    payload: null,
    media: null,
    location: null,
    reaction: null,
    contextProviderMessageId: null,
    ...overrides,
  };
}
