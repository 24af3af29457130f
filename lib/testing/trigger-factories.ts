// Test data for the trigger endpoint: an account with an approved template, a campaign and a key row.
import { getDb } from "@/db";
import { apiKeys, campaigns, templates } from "@/db/schema";
import { triggerConfigSchema, type MessageConfig, type TriggerConfig, type TriggerConfigInput } from "@/lib/campaigns/schemas";
import { displayApiKey, generateApiKey, hashApiKey } from "@/lib/api-keys/format";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "./factories";

export const ORDER_TEMPLATE_COMPONENTS = [
  { type: "HEADER", format: "TEXT", text: "Order {{1}}" },
  { type: "BODY", text: "Hi {{1}}, your order {{2}} has shipped." },
  { type: "FOOTER", text: "Reply STOP to opt out" },
  { type: "BUTTONS", buttons: [{ type: "URL", text: "Track", url: "https://shop.test/t/{{1}}" }] },
];

export const ORDER_TRIGGER_CONFIG: TriggerConfig = triggerConfigSchema.parse({
  phoneField: "phone",
  fields: [
    { field: "first_name", attribute: "name", type: "string", required: false },
    { field: "order", attribute: "order_id", type: "string", required: false },
    { field: "amount", attribute: "amount", type: "number", required: false },
    { field: "vip", attribute: "vip", type: "boolean", required: false },
    { field: "email", attribute: "email", type: "email", required: false },
    { field: "due", attribute: "due_date", type: "date", required: false },
  ],
});

export const ORDER_MESSAGE_CONFIG: MessageConfig = {
  variables: [
    { key: "header.1", attribute: "order_id", fallback: null },
    { key: "body.1", attribute: "name", fallback: "there" },
    { key: "body.2", attribute: "order_id", fallback: null },
    { key: "button.0.1", attribute: "order_id", fallback: null },
  ],
};

export interface TriggerFixture {
  workspaceId: string;
  userId: string;
  campaignId: string;
  templateId: string;
  apiKeyId: string;
  /** The full key, for requests through the key-authenticated routes. */
  apiKey: string;
}

/** A workspace with an approved order template, a trigger campaign using it, and an API key row. */
export async function createTriggerFixture(
  options: {
    status?: "draft" | "active" | "paused" | "archived";
    kind?: "trigger" | "bulk";
    triggerConfig?: TriggerConfigInput;
    messageConfig?: MessageConfig;
    rateLimitPerMinute?: number;
    templateStatus?: string;
  } = {},
): Promise<TriggerFixture> {
  const db = await getDb();
  const account = await createTestAccount();
  const templateId = newId("tpl");
  await db.insert(templates).values({
    id: templateId,
    workspaceId: account.workspaceId,
    name: "order_shipped",
    language: "en_US",
    category: "UTILITY",
    status: options.templateStatus ?? "APPROVED",
    parameterFormat: "POSITIONAL",
    components: ORDER_TEMPLATE_COMPONENTS,
  });
  const campaignId = await createTriggerCampaign(account.workspaceId, templateId, options);
  const apiKeyId = newId("key");
  const apiKey = generateApiKey();
  await db.insert(apiKeys).values({
    id: apiKeyId,
    workspaceId: account.workspaceId,
    name: "Test key",
    keyHash: hashApiKey(apiKey),
    displayKey: displayApiKey(apiKey),
    createdBy: account.id,
  });
  return { workspaceId: account.workspaceId, userId: account.id, campaignId, templateId, apiKeyId, apiKey };
}

export async function createTriggerCampaign(
  workspaceId: string,
  templateId: string,
  options: {
    status?: "draft" | "active" | "paused" | "archived";
    kind?: "trigger" | "bulk";
    triggerConfig?: TriggerConfigInput;
    messageConfig?: MessageConfig;
    rateLimitPerMinute?: number;
  } = {},
): Promise<string> {
  const db = await getDb();
  const id = newId("cmp");
  await db.insert(campaigns).values({
    id,
    workspaceId,
    name: "Order shipped",
    kind: options.kind ?? "trigger",
    status: options.status ?? "active",
    triggerConfig: triggerConfigSchema.parse(options.triggerConfig ?? ORDER_TRIGGER_CONFIG),
    messageConfig: { ...(options.messageConfig ?? ORDER_MESSAGE_CONFIG) },
    templateId,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 600,
    deployedAt: new Date(),
  });
  return id;
}
