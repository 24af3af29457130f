// The demo workspace's content, so that a first start shows a working account: customers with
// consent, a list and a segment, a completed bulk campaign with its replies, and a live trigger
// campaign with a day of requests and messages. Numbers are from ranges reserved for fiction (the
// North American 555-01xx lines, Australia's 0491 570 xxx). Messages go through lib/outbox (stored
// sent, then their delivery statuses as webhooks would report them) and replies through lib/inbound.
import { eq, sql } from "drizzle-orm";
import { queryRows } from "./rows";
import type { DB, Executor } from "./types";
import { auditEvents, campaigns, contactAttributes, contactListMembers, contactLists, contacts, segments, senders, templates, triggerRequests, workspaces } from "./schema";
import { createApiKey } from "@/lib/api-keys/service";
import type { AuditAction } from "@/lib/audit/actions";
import { auditRow, type AuditActor } from "@/lib/audit/service";
import type { MessageConfig } from "@/lib/campaigns/schemas";
import { triggerConfigSchema } from "@/lib/campaigns/schemas";
import type { InboundMessage } from "@/lib/channels/types";
import { reasonForCode } from "@/lib/channels/whatsapp/errors";
import { newId } from "@/lib/crypto/random";
import { recordInboundMessages } from "@/lib/inbound/record";
import { composeFor, type CampaignSending } from "@/lib/outbox/compose";
import { insertSentMessages, type SentMessage } from "@/lib/outbox/history";
import { recordStatusReports, type AddressedStatusReport } from "@/lib/outbox/statuses";
import { ensureSandboxTemplates } from "@/lib/templates/service";
import type { ParameterFormat } from "@/lib/templates";

export const DEMO_CONTACT_COUNT = 150;
export const DEMO_LIST_NAME = "April bike service";
export const DEMO_SEGMENT_NAME = "Pro plan customers";
export const DEMO_BULK_CAMPAIGN = "April bike service reminders";
export const DEMO_TRIGGER_CAMPAIGN = "Order confirmation";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A small deterministic generator: the same demo on every machine. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!, between: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

const FIRST_NAMES = [
  "Maria", "James", "Sofía", "Liam", "Aiko", "Noah", "Chloé", "Mateo", "Amara", "Oliver", "Priya", "Lucas", "Zoë", "Ethan", "Fatima", "Jack",
  "Isabella", "Mohammed", "Olivia", "Diego", "Mei", "William", "Ana", "Kai", "Grace", "Tomás", "Leilani", "Benjamin", "Nadia", "Samuel",
  "Emma", "Arjun", "Charlotte", "Hiroshi", "Layla", "Daniel", "Valentina", "Ryan", "Ingrid", "Kofi",
];
const LAST_NAMES = [
  "García", "Smith", "Nguyen", "Patel", "Kim", "Müller", "O'Brien", "Rossi", "Tanaka", "Okafor", "Silva", "Johnson", "Martin", "Cohen", "Singh",
  "Williams", "Brown", "López", "Chen", "Taylor", "Dubois", "Kowalski", "Andersen", "Haddad", "Walker", "Ramírez", "Fischer", "Murphy",
];

/** Fictional numbers: North America's 555-0100…0199 per area code, Australia's 0491 570 xxx. */
const PLACES = [
  { country: "US", city: "New York", prefix: "+1212555" },
  { country: "US", city: "Austin", prefix: "+1512555" },
  { country: "US", city: "Chicago", prefix: "+1312555" },
  { country: "US", city: "Seattle", prefix: "+1206555" },
  { country: "US", city: "Boston", prefix: "+1617555" },
  { country: "US", city: "Denver", prefix: "+1303555" },
  { country: "CA", city: "Toronto", prefix: "+1416555" },
  { country: "CA", city: "Vancouver", prefix: "+1604555" },
  { country: "AU", city: "Sydney", prefix: "+61491570" },
  { country: "AU", city: "Melbourne", prefix: "+61491571" },
] as const;
const PLANS = ["Free", "Free", "Pro", "Pro", "Business"] as const;
const APPOINTMENT_DAYS = ["Tuesday, April 14", "Wednesday, April 15", "Thursday, April 16", "Saturday, April 18"];
const APPOINTMENT_TIMES = ["9:00", "10:30", "12:00", "14:30", "16:00", "17:30"];

export type DemoConsent = "subscribed" | "unknown" | "unsubscribed";

/** Most demo customers opted in on the imported file, some never said, a few opted out. */
export function demoConsentOf(index: number): DemoConsent {
  if (index % 37 === 5) return "unsubscribed";
  if (index % 7 === 3) return "unknown";
  return "subscribed";
}

/**
 * The consent columns of a demo contact. Kept in one place: the contact's consent (`subscribed`,
 * `unknown`, `unsubscribed`) maps onto the stored columns here and nowhere else.
 */
export function demoConsentColumns(consent: DemoConsent, at: Date, importFile: string) {
  const status = { consentStatus: consent, consentSource: consent === "unknown" ? null : ("import" as const), consentAt: consent === "unknown" ? null : at };
  if (consent === "unsubscribed") return { ...status, optedOutAt: at, optOutMethod: "import" as const, optOutDetail: importFile };
  return { ...status, optedOutAt: null, optOutMethod: null, optOutDetail: null };
}

interface DemoContact {
  id: string;
  phone: string;
  name: string;
  attributes: Record<string, unknown>;
  consent: DemoConsent;
  inList: boolean;
}

function demoContacts(): DemoContact[] {
  const rng = random(28);
  const used = new Set<string>();
  return Array.from({ length: DEMO_CONTACT_COUNT }, (_, index) => {
    const place = PLACES[index % PLACES.length]!;
    let phone: string;
    do {
      // 555-0100…0199 (NANP) or 0491 57x 0xx–1xx (ACMA).
      phone = place.country === "AU" ? `${place.prefix}${String(rng.between(6, 159)).padStart(3, "0")}` : `${place.prefix}01${String(rng.between(0, 99)).padStart(2, "0")}`;
    } while (used.has(phone));
    used.add(phone);
    const firstName = FIRST_NAMES[(index * 7 + 3) % FIRST_NAMES.length]!;
    const lastName = rng.pick(LAST_NAMES);
    const inList = index % 3 !== 2;
    const attributes: Record<string, unknown> = { first_name: firstName, city: place.city, country: place.country, plan: rng.pick(PLANS) };
    if (inList) {
      attributes.appointment_day = rng.pick(APPOINTMENT_DAYS);
      attributes.appointment_time = rng.pick(APPOINTMENT_TIMES);
    }
    return { id: newId("ctc"), phone, name: `${firstName} ${lastName}`, attributes, consent: demoConsentOf(index), inList };
  });
}

const BULK_MESSAGE_CONFIG: MessageConfig = {
  variables: [
    { key: "header.1", attribute: null, fallback: "Bike service" },
    { key: "body.1", attribute: "first_name", fallback: "there" },
    { key: "body.2", attribute: "appointment_day", fallback: null },
    { key: "body.3", attribute: "appointment_time", fallback: null },
  ],
};

const TRIGGER_MESSAGE_CONFIG: MessageConfig = {
  variables: [
    { key: "body.1", attribute: "first_name", fallback: "there" },
    { key: "body.2", attribute: "order_number", fallback: null },
  ],
};

const TRIGGER_CONFIG = triggerConfigSchema.parse({
  phoneField: "phone",
  fields: [
    { field: "first_name", attribute: "first_name", type: "string", required: false },
    { field: "order_number", attribute: "order_number", type: "string", required: true },
  ],
});

/** Failures as WhatsApp reports them for any template: a number not on WhatsApp, one restricted for spam. */
const FAILURES = [131026, 131048].map((code) => ({ errorCode: String(code), errorReason: reasonForCode(code) }));

/** Whether the workspace already has contacts or campaigns: the demo is then left as it is. */
async function hasContent(db: Executor, workspaceId: string): Promise<boolean> {
  const rows = await queryRows<{ found: number }>(
    db,
    sql`select 1 as found where exists (select 1 from contacts where workspace_id = ${workspaceId})
      or exists (select 1 from campaigns where workspace_id = ${workspaceId})`,
  );
  return rows.length > 0;
}

/**
 * Fills the demo workspace: contacts, a list, a segment, a completed bulk campaign with replies and
 * a live trigger campaign with the last 24 hours of requests. Runs once: a workspace that already
 * has contacts or campaigns is left alone (`{ seeded: false }`).
 */
export async function seedDemoWorkspace(db: DB, input: { workspaceId: string; userId: string; now?: Date }): Promise<{ seeded: boolean }> {
  // One transaction: a start interrupted halfway leaves nothing, and the next start seeds again.
  return db.transaction(async (tx) => {
    // Two starts at once: the second waits here, then finds the first one's content.
    await tx.execute(sql`select id from workspaces where id = ${input.workspaceId} for update`);
    if (await hasContent(tx, input.workspaceId)) return { seeded: false };
    await fill(tx, input);
    return { seeded: true };
  });
}

async function fill(db: Executor, input: { workspaceId: string; userId: string; now?: Date }): Promise<void> {
  const { workspaceId, userId } = input;
  const now = input.now ?? new Date();
  // The demo owner's changes, as if made from a browser at a documentation address (RFC 5737).
  const actor: AuditActor = { userId, apiKeyId: null, ip: "203.0.113.24", userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15" };
  const rng = random(17);

  await ensureSandboxTemplates(db, workspaceId);
  // The demo's audience answers its bulk campaigns (lib/inbound/sandbox-campaign-replies.ts).
  await db.update(workspaces).set({ sandboxAudienceReplies: true }).where(eq(workspaces.id, workspaceId));
  const [sender] = await db.select({ id: senders.id }).from(senders).where(eq(senders.workspaceId, workspaceId)).limit(1);
  if (!sender) throw new Error("The demo workspace has no sender.");
  const templateRows = await db.select().from(templates).where(eq(templates.workspaceId, workspaceId));
  const template = (name: string) => {
    const row = templateRows.find((t) => t.name === name);
    if (!row) throw new Error(`The demo template ${name} is missing.`);
    return row;
  };
  const reminder = template("appointment_reminder");
  const confirmation = template("order_confirmation");

  // Customers, imported 30 days ago.
  const importedAt = new Date(now.getTime() - 30 * DAY);
  const importFile = "customers-march.csv";
  const people = demoContacts();
  await db.insert(contactAttributes).values(
    (["first_name", "city", "country", "plan", "appointment_day", "appointment_time", "order_number"] as const).map((key) => ({ workspaceId, key, type: "string" as const })),
  ).onConflictDoNothing();
  await db.insert(contacts).values(
    people.map((person, index) => ({
      id: person.id,
      workspaceId,
      phoneNumber: person.phone,
      name: person.name,
      attributes: person.attributes,
      ...demoConsentColumns(person.consent, new Date(importedAt.getTime() + index * 1000), importFile),
      createdAt: new Date(importedAt.getTime() + index * 1000),
      updatedAt: new Date(importedAt.getTime() + index * 1000),
    })),
  );

  // A list for the bulk campaign and a segment.
  const listId = newId("lst");
  await db.insert(contactLists).values({ id: listId, workspaceId, name: DEMO_LIST_NAME, createdAt: importedAt, updatedAt: importedAt });
  await db.insert(contactListMembers).values(people.filter((p) => p.inList).map((p) => ({ listId, contactId: p.id, createdAt: importedAt })));
  await db.insert(segments).values({
    id: newId("seg"),
    workspaceId,
    name: DEMO_SEGMENT_NAME,
    filter: { match: "all", conditions: [{ field: "attribute", key: "plan", op: "equals", value: "Pro" }] },
    createdAt: importedAt,
    updatedAt: importedAt,
  });

  const sending = (campaignId: string, row: typeof reminder, messageConfig: MessageConfig): CampaignSending => ({
    workspaceId,
    campaignId,
    senderId: sender.id,
    template: { name: row.name, language: row.language, parameterFormat: row.parameterFormat as ParameterFormat, components: row.components },
    messageConfig,
  });
  const reports: AddressedStatusReport[] = [];
  const settle = (wamid: string, sentAt: Date, roll: number) => {
    const report = (status: "delivered" | "read" | "failed", at: Date, failure?: (typeof FAILURES)[number]) =>
      reports.push({ providerMessageId: wamid, workspaceId, report: { status, at, errorCode: failure?.errorCode ?? null, errorReason: failure?.errorReason ?? null } });
    if (roll < 0.05) return report("failed", new Date(sentAt.getTime() + 2000), FAILURES[roll < 0.035 ? 0 : 1]);
    // A phone that stayed off: sent, never delivered.
    if (roll < 0.08) return;
    const delivered = new Date(sentAt.getTime() + rng.between(1, 20) * 1000);
    report("delivered", delivered);
    if (roll < 0.3) return;
    report("read", new Date(delivered.getTime() + rng.between(1, 240) * MINUTE));
  };
  const wamid = () => `wamid.DEMO.${newId("w").slice(2)}`;

  // The completed bulk campaign: launched 3 days ago to the list's subscribed and unknown members.
  const bulkId = newId("cmp");
  const launchedAt = new Date(now.getTime() - 3 * DAY - 5 * HOUR);
  const recipients = people.filter((p) => p.inList && p.consent !== "unsubscribed");
  const bulkSent: { person: DemoContact; wamid: string; sentAt: Date }[] = [];
  const bulkMessages: SentMessage[] = recipients.map((person, index) => {
    const composed = composeFor(sending(bulkId, reminder, BULK_MESSAGE_CONFIG), { phone: person.phone, contact: { name: person.name, attributes: person.attributes } });
    if (!composed.ok) throw new Error(`The demo reminder does not render for ${person.phone}.`);
    const sentAt = new Date(launchedAt.getTime() + 1500 + index * 400);
    const id = wamid();
    bulkSent.push({ person, wamid: id, sentAt });
    return { draft: composed.draft, contactId: person.id, providerMessageId: id, createdAt: launchedAt, sentAt };
  });
  const completedAt = new Date(launchedAt.getTime() + 1500 + recipients.length * 400 + 5000);
  await db.insert(campaigns).values({
    id: bulkId,
    workspaceId,
    name: DEMO_BULK_CAMPAIGN,
    kind: "bulk",
    status: "completed",
    templateId: reminder.id,
    senderId: sender.id,
    messageConfig: BULK_MESSAGE_CONFIG,
    audience: { listIds: [listId], segmentIds: [] },
    launchedAt,
    completedAt,
    createdAt: new Date(launchedAt.getTime() - 2 * HOUR),
    updatedAt: completedAt,
    version: 2,
  });
  await insertSentMessages(db, { workspaceId, campaignId: bulkId, source: "bulk", messages: bulkMessages });
  const bulkRolls = bulkSent.map(() => rng.next());
  bulkSent.forEach((sent, index) => settle(sent.wamid, sent.sentAt, bulkRolls[index]!));

  // The live trigger campaign, called by the shop for every order over the last 24 hours.
  const triggerId = newId("cmp");
  const deployedAt = new Date(now.getTime() - 20 * DAY);
  await db.insert(campaigns).values({
    id: triggerId,
    workspaceId,
    name: DEMO_TRIGGER_CAMPAIGN,
    kind: "trigger",
    status: "active",
    templateId: confirmation.id,
    senderId: sender.id,
    triggerConfig: TRIGGER_CONFIG,
    messageConfig: TRIGGER_MESSAGE_CONFIG,
    deployedAt,
    createdAt: new Date(deployedAt.getTime() - HOUR),
    updatedAt: deployedAt,
  });
  const key = await createApiKey(db, workspaceId, actor, { name: "Shop checkout" });

  const customers = people.filter((p) => p.consent !== "unsubscribed");
  const requestRows: (typeof triggerRequests.$inferInsert)[] = [];
  const triggerMessages: SentMessage[] = [];
  const triggerSent: { person: DemoContact; wamid: string; sentAt: Date }[] = [];
  const calls = 64;
  for (let index = 0; index < calls; index += 1) {
    const at = new Date(now.getTime() - DAY + Math.floor(((index + rng.next()) / calls) * (DAY - 10 * MINUTE)));
    const person = rng.pick(customers);
    const orderNumber = `A-${10480 + index}`;
    const refused = index % 16 === 7;
    const body = refused
      ? { phone: person.phone.replace(/^\+1/, "").replace(/^\+61/, "0").slice(0, 7), first_name: person.attributes.first_name, order_number: orderNumber }
      : { phone: person.phone, first_name: person.attributes.first_name, order_number: orderNumber };
    const text = JSON.stringify(body);
    requestRows.push({
      id: newId("req"),
      workspaceId,
      campaignId: triggerId,
      apiKeyId: key.id,
      keyName: key.name,
      requestId: newId("rq"),
      status: refused ? 422 : 202,
      errorCode: refused ? "validation_failed" : null,
      problem: refused
        ? {
            title: "Validation failed",
            detail: "The request did not pass validation.",
            errors: [{ path: "phone", code: "invalid_phone", message: "Not a phone number in international format: add the country code (+1 …)." }],
          }
        : null,
      messageCount: refused ? 0 : 1,
      body: text,
      bodyBytes: Buffer.byteLength(text),
      createdAt: at,
    });
    if (refused) continue;
    const composed = composeFor(sending(triggerId, confirmation, TRIGGER_MESSAGE_CONFIG), {
      phone: person.phone,
      contact: { name: person.name, attributes: person.attributes },
      incoming: { first_name: body.first_name, order_number: orderNumber },
    });
    if (!composed.ok) throw new Error(`The demo order confirmation does not render for ${person.phone}.`);
    const sentAt = new Date(at.getTime() + 800);
    const id = wamid();
    triggerSent.push({ person, wamid: id, sentAt });
    triggerMessages.push({ draft: composed.draft, contactId: person.id, apiKeyId: key.id, providerMessageId: id, createdAt: at, sentAt });
  }
  await db.insert(triggerRequests).values(requestRows);
  await insertSentMessages(db, { workspaceId, campaignId: triggerId, source: "trigger", messages: triggerMessages });
  triggerSent.forEach((sent) => settle(sent.wamid, sent.sentAt, rng.next()));
  await recordStatusReports(db, reports, { holdUnmatched: false });

  // Replies, as the WhatsApp webhook delivers them.
  const readWamids = new Set(reports.filter((r) => r.report.status === "read").map((r) => r.providerMessageId));
  const replies: InboundMessage[] = [];
  const reply = (sent: { person: DemoContact; wamid: string; sentAt: Date }, after: number, kind: "button" | "text", text: string) =>
    replies.push({
      providerMessageId: `wamid.DEMO.in.${newId("w").slice(2)}`,
      from: sent.person.phone,
      profileName: sent.person.name,
      at: new Date(sent.sentAt.getTime() + after),
      kind,
      text,
      payload: kind === "button" ? text : null,
      media: null,
      location: null,
      reaction: null,
      contextProviderMessageId: sent.wamid,
    });
  const bulkRead = bulkSent.filter((s) => readWamids.has(s.wamid));
  const texts = ["Can we make it an hour later?", "See you then 👍", "Is the chain check included?", "Thanks for the reminder!"];
  bulkRead.forEach((sent, index) => {
    if (index % 4 === 0) reply(sent, 30 * MINUTE + index * MINUTE, "button", "Confirm");
    else if (index % 9 === 1) reply(sent, 45 * MINUTE + index * MINUTE, "button", "Reschedule");
    else if (index % 11 === 2) reply(sent, 2 * HOUR + index * MINUTE, "text", texts[index % texts.length]!);
  });
  const stopper = bulkRead.at(-1);
  if (stopper) reply(stopper, 3 * HOUR, "text", "STOP");
  const triggerRead = triggerSent.filter((s) => readWamids.has(s.wamid));
  ["Thank you! When will it ship?", "Got it, thanks", "Can I change the delivery address?"].forEach((text, index) => {
    const sent = triggerRead[index * 5];
    if (sent) reply(sent, 20 * MINUTE, "text", text);
  });
  await recordInboundMessages(db, { workspaceId, senderId: sender.id }, replies.sort((a, b) => a.at.getTime() - b.at.getTime()));
  // Stored as they arrived, not as they were loaded: the logs order replies beside the messages they answer.
  await db.execute(sql`update inbound_messages set created_at = received_at where workspace_id = ${workspaceId}`);

  // What the audit log would show for the above.
  const audit = (action: AuditAction, at: Date, targetType: string, targetId: string, metadata: Record<string, unknown>) => ({
    ...auditRow({ workspaceId, actor, action, targetType, targetId, metadata }),
    createdAt: at,
  });
  await db.insert(auditEvents).values([
    audit("campaign.deployed", deployedAt, "campaign", triggerId, { name: DEMO_TRIGGER_CAMPAIGN, from: "draft", to: "active", version: 1 }),
    audit("campaign.launched", launchedAt, "campaign", bulkId, { name: DEMO_BULK_CAMPAIGN, from: "draft", to: "sending", version: 2 }),
  ]);
}
