// Shared by the endpoint form (browser) and the route handlers (server): no server imports here.
import { z } from "zod";
import { webhookEventTypes, type WebhookDeliveryStatus, type WebhookEventType } from "@/db/schema";

export { webhookEventTypes, type WebhookEventType };

/** What an endpoint can subscribe to (every type but `webhook.test`, which is sent on request). */
export type SubscribableEventType = (typeof webhookEventTypes)[number];

export const WEBHOOK_EVENT_LABELS: Record<(typeof webhookEventTypes)[number], string> = {
  "message.sent": "A message was accepted by WhatsApp",
  "message.delivered": "A message reached the phone",
  "message.read": "A message was read",
  "message.failed": "A message failed",
  "message.skipped": "A message was skipped (opted out, cancelled)",
  "campaign.completed": "A bulk campaign finished sending",
  "contact.opted_out": "A contact opted out",
  "message.received": "A contact sent a message",
  "conversation.assigned": "A conversation was assigned to a member",
  "conversation.closed": "A conversation was closed",
};

export const ENDPOINT_NOT_FOUND = "No webhook endpoint with this id exists in your workspace.";

/** The reason stored when a user switches an endpoint off (any other reason: the service did, after failures). */
export const SWITCHED_OFF_BY_USER = "Switched off by a user.";

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;

/**
 * The built-in test endpoint's URL: its deliveries never leave the process. They are signed as usual
 * and recorded (`webhook_test_receipts`), for the endpoint's page to show with the signature
 * checked. Works wherever the app runs (Vercel included) and needs no private-URL access.
 */
export const TEST_ENDPOINT_URL = "sendstream:test-endpoint";

export const isTestEndpoint = (endpoint: { url: string }) => endpoint.url === TEST_ENDPOINT_URL;

/** How an endpoint is named on screen: its URL, or "Built-in test endpoint". */
export const endpointLabel = (endpoint: { url: string }) => (isTestEndpoint(endpoint) ? "Built-in test endpoint" : endpoint.url);

export const webhookUrlSchema = z
  .string({ error: "Enter the endpoint's URL." })
  .trim()
  .min(1, "Enter the endpoint's URL.")
  .max(WEBHOOK_URL_MAX_LENGTH, `Use at most ${WEBHOOK_URL_MAX_LENGTH} characters.`)
  .refine(
    (value) => value === TEST_ENDPOINT_URL || /^https?:\/\/[^\s]+$/i.test(value),
    "Enter a full URL, such as https://example.com/webhooks/sendstream.",
  );

const descriptionSchema = z
  .string()
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, `Use at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.`)
  .refine((value) => !/\p{Cc}/u.test(value), "The description cannot contain control characters.");

const eventsSchema = z
  .array(z.enum(webhookEventTypes, { error: `Not an event type: use one of ${webhookEventTypes.join(", ")}.` }))
  .min(1, "Pick at least one event.")
  .transform((events) => webhookEventTypes.filter((type) => events.includes(type)));

export const createWebhookEndpointSchema = z
  .object({ url: webhookUrlSchema, description: descriptionSchema.default(""), events: eventsSchema })
  .strict();
export type CreateWebhookEndpointInput = z.input<typeof createWebhookEndpointSchema>;

export const updateWebhookEndpointSchema = z
  .object({ url: webhookUrlSchema, description: descriptionSchema, events: eventsSchema, enabled: z.boolean() })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, "Send at least one of url, description, events, enabled.");
export type UpdateWebhookEndpointInput = z.input<typeof updateWebhookEndpointSchema>;

/** An endpoint as the settings pages show it; never its secret. Dates are ISO 8601 strings. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  events: SubscribableEventType[];
  enabled: boolean;
  /** Why it is off: switched off by a user, or a delivery failed for 24 hours. */
  disabledReason: string | null;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Deliveries still to be made (waiting for their first attempt or a retry). */
  pending: number;
  /** Deliveries that failed for good in the last 7 days. */
  failedLastWeek: number;
}

/** The response that creates an endpoint or rolls its secret: the only time the secret is shown. */
export interface WebhookEndpointWithSecret {
  endpoint: WebhookEndpointView;
  secret: string;
}

export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When it is tried next, while pending. */
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  responseMs: number | null;
  responseBody: string | null;
  error: string | null;
  /** The signed JSON body; null until the first attempt renders it. */
  body: string | null;
  createdAt: string;
}

export interface DeliveryPage {
  data: WebhookDeliveryView[];
  nextCursor: string | null;
}

/** One request the built-in test endpoint received, with its signature checked against the endpoint's current secret. */
export interface TestReceiptView {
  id: string;
  eventId: string;
  eventType: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: string;
  /** The `webhook-signature` matches the body under the current secret (false after the secret was rolled). */
  signatureValid: boolean;
}
