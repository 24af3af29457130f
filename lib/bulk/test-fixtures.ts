// Test data for bulk campaigns: a workspace with an approved template for its sender, contacts in a
// list (some opted out) and a bulk draft targeting it.
import type { ChannelName } from "@/lib/channels";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { contactListMembers, contactLists, contacts, messages, senders, templates } from "@/db/schema";
import type { MessageConfig } from "@/lib/campaigns/schemas";
import { createCampaign } from "@/lib/campaigns/service";
import { newId } from "@/lib/crypto/random";
import { getSenderRow } from "@/lib/senders/service";
import { SANDBOX_EXTERNAL_PREFIX } from "@/lib/templates/service";
import { createTestAccount } from "@/lib/testing/factories";
import { connectTestWhatsAppSender } from "@/lib/testing/messaging-factories";

export const PROMO_COMPONENTS = [
  { type: "HEADER", format: "TEXT", text: "Hello {{1}}" },
  { type: "BODY", text: "Hi {{1}}, use code {{2}} in {{3}}." },
  { type: "FOOTER", text: "Reply STOP to opt out" },
  { type: "BUTTONS", buttons: [{ type: "URL", text: "Shop", url: "https://shop.test/c/{{1}}" }] },
];

export const PROMO_MESSAGE_CONFIG: MessageConfig = {
  variables: [
    { key: "header.1", attribute: "name", fallback: "friend" },
    { key: "body.1", attribute: "name", fallback: "there" },
    { key: "body.2", attribute: "code", fallback: null },
    { key: "body.3", attribute: "city", fallback: "your store" },
    { key: "button.0.1", attribute: "code", fallback: "WELCOME" },
  ],
};

export interface BulkFixture {
  workspaceId: string;
  userId: string;
  templateId: string;
  listId: string;
  contactIds: string[];
  optedOutIds: string[];
  campaignId: string;
}

let phoneCounter = 0;
/** A valid Portuguese mobile number, unique within a test process. */
export function testPhone(): string {
  phoneCounter += 1;
  return `+35191${Math.floor(Math.random() * 10)}${String(phoneCounter % 1_000_000).padStart(6, "0")}`;
}

export async function createBulkFixture(
  options: { contacts?: number; optedOut?: number; provider?: ChannelName; tier?: string | null; attributes?: (index: number) => Record<string, unknown>; /** Consent of the contacts not opted out (default subscribed: the template is MARKETING). */ consent?: (index: number) => "subscribed" | "unknown" } = {},
): Promise<BulkFixture> {
  const db = await getDb();
  const account = await createTestAccount();
  const workspaceId = account.workspaceId;
  await getSenderRow(db, workspaceId);
  const provider = options.provider ?? "sandbox";
  if (provider === "whatsapp") {
    await connectTestWhatsAppSender(workspaceId);
    await db.update(senders).set({ messagingTier: options.tier ?? null }).where(eq(senders.workspaceId, workspaceId));
  }
  const templateId = newId("tpl");
  await db.insert(templates).values({
    id: templateId,
    workspaceId,
    externalId: provider === "sandbox" ? `${SANDBOX_EXTERNAL_PREFIX}promo` : "1234567890",
    name: "promo",
    language: "en_US",
    category: "MARKETING",
    status: "APPROVED",
    parameterFormat: "POSITIONAL",
    components: PROMO_COMPONENTS,
  });
  const listId = newId("lst");
  await db.insert(contactLists).values({ id: listId, workspaceId, name: "Customers" });
  const count = options.contacts ?? 5;
  const optedOut = options.optedOut ?? 0;
  const rows = Array.from({ length: count + optedOut }, (_, index) => ({
    id: newId("ctc"),
    workspaceId,
    phoneNumber: testPhone(),
    name: `Person ${index}`,
    attributes: options.attributes?.(index) ?? { code: `CODE${index}`, city: index % 2 === 0 ? "Lisbon" : "Porto" },
    optedOutAt: index >= count ? new Date() : null,
    optOutMethod: index >= count ? ("manual" as const) : null,
    consentStatus: index >= count ? ("unsubscribed" as const) : (options.consent?.(index) ?? ("subscribed" as const)),
  }));
  await db.insert(contacts).values(rows);
  await db.insert(contactListMembers).values(rows.map((row) => ({ listId, contactId: row.id })));
  const campaign = await createCampaign(db, workspaceId, {
    kind: "bulk",
    name: "Promo",
    audience: { listIds: [listId], segmentIds: [] },
    templateId,
    messageConfig: PROMO_MESSAGE_CONFIG,
  });
  return {
    workspaceId,
    userId: account.id,
    templateId,
    listId,
    contactIds: rows.slice(0, count).map((r) => r.id),
    optedOutIds: rows.slice(count).map((r) => r.id),
    campaignId: campaign.id,
  };
}

/** The campaign's bulk messages by status. */
export async function bulkStatusCounts(campaignId: string): Promise<Record<string, number>> {
  const db = await getDb();
  const rows = await db
    .select({ status: messages.status, count: sql<number>`count(*)::int` })
    .from(messages)
    .where(sql`${messages.campaignId} = ${campaignId} and ${messages.source} = 'bulk'`)
    .groupBy(messages.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}

export async function bulkMessages(campaignId: string) {
  const db = await getDb();
  return db.select().from(messages).where(sql`${messages.campaignId} = ${campaignId} and ${messages.source} = 'bulk'`);
}
