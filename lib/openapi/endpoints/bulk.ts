// Endpoints of bulk campaigns (audience count, preview, test send, launch check, schedule, launch,
// cancel, progress, retarget); spread into ENDPOINTS in ../registry.ts. Pause, resume, create and
// update are the shared campaign endpoints (./campaigns.ts).
import {
  audienceCountRequestSchema,
  audienceCountResponseSchema,
  launchCheckResponseSchema,
  launchRequestSchema,
  previewRequestSchema,
  previewResponseSchema,
  progressResponseSchema,
  retargetRequestSchema,
  scheduleRequestSchema,
  testSendRequestSchema,
} from "@/lib/bulk/schemas";
import { lifecycleActionSchema } from "@/lib/campaigns/schemas";
import type { ErrorCode } from "@/lib/http/error-catalog";
import { z } from "zod";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter } from "../endpoint";
import { campaignSchema, EXAMPLE_IDS, messageSchema } from "../schemas";

const campaignIdParam: Parameter = { name: "id", description: "The bulk campaign's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.campaign };

const AUDIENCE_EXAMPLE = { listIds: [EXAMPLE_IDS.list], segmentIds: [EXAMPLE_IDS.segment] };
const MESSAGE_CONFIG_EXAMPLE = { variables: [{ key: "body.1", attribute: "name", fallback: "there" }] };

const bulkCampaignExample = {
  id: EXAMPLE_IDS.campaign,
  name: "November newsletter",
  kind: "bulk",
  status: "draft",
  triggerConfig: { phoneField: "phone", fields: [] },
  messageConfig: MESSAGE_CONFIG_EXAMPLE,
  templateId: EXAMPLE_IDS.template,
  template: { id: EXAMPLE_IDS.template, name: "newsletter", language: "en_US", status: "APPROVED" },
  senderId: EXAMPLE_IDS.sender,
  rateLimitPerMinute: 600,
  respectOptOut: true,
  sendPolicy: { quietHours: null, frequencyCap: null },
  journey: null,
  journeyVersion: 0,
  version: 1,
  deployedAt: null,
  bulk: {
    audience: AUDIENCE_EXAMPLE,
    sendRatePerSecond: 40,
    scheduledAt: null,
    timeZone: null,
    allowTierWait: false,
    launchedAt: null,
    completedAt: null,
    scheduleMissed: false,
  },
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
  deployment: null,
};

const scheduledExample = {
  ...bulkCampaignExample,
  status: "scheduled",
  version: 2,
  bulk: { ...bulkCampaignExample.bulk, scheduledAt: "2026-12-01T09:00:00.000Z", timeZone: "Europe/Lisbon" },
};
const sendingExample = { ...bulkCampaignExample, status: "sending", version: 2, bulk: { ...bulkCampaignExample.bulk, launchedAt: EXAMPLE_TIME } };

const STATUS_ERRORS: ErrorCode[] = ["not_found", "not_a_bulk_campaign", "invalid_status_transition", "version_conflict"];

const campaignAction = (action: "schedule" | "launch" | "cancel"): Endpoint => {
  const spec: Record<typeof action, { summary: string; description: string; body: NonNullable<Endpoint["body"]>; example: unknown; errors: ErrorCode[] }> = {
    schedule: {
      summary: "Schedule a bulk campaign",
      description:
        "`draft` or `scheduled` → `scheduled`. `scheduledAt` is a local date-time in `timeZone` (IANA) or an instant with an offset; it must be in the future and within a year. The launch checks run now except the daily limit, which is checked again when the campaign starts. A campaign found more than 24 h after its time (the service was down) is not started: it returns to `draft` with `bulk.scheduleMissed`.",
      body: { schema: scheduleRequestSchema, strict: true, required: true, example: { scheduledAt: "2026-12-01T09:00", timeZone: "Europe/Lisbon", allowTierWait: true } },
      example: scheduledExample,
      errors: [...STATUS_ERRORS, ...JSON_BODY_ERRORS, "launch_checks_failed"],
    },
    launch: {
      summary: "Launch a bulk campaign now",
      description:
        "`draft` or `scheduled` → `sending`: the audience (opted-out contacts left out) becomes one queued message per contact, in one transaction with the status change, so a launch is never half done. Launching again (a retry, or two at once) changes nothing and answers the campaign. An audience above what the sender's daily messaging limit allows now is a 422 saying how many can go, unless `allowTierWait`: then those go now and the rest wait for the rolling 24 h to free up.",
      body: { schema: launchRequestSchema, strict: true, required: false, example: { version: 1, allowTierWait: false, includeUnknownConsent: false } },
      example: sendingExample,
      errors: [...STATUS_ERRORS, ...JSON_BODY_ERRORS, "launch_checks_failed"],
    },
    cancel: {
      summary: "Cancel a bulk campaign",
      description:
        "`scheduled`, `sending` or `paused` → `cancelled`. Every message not sent yet becomes `skipped` with error `cancelled`; no new send starts within a second. Cancelling a cancelled campaign changes nothing.",
      body: { schema: lifecycleActionSchema, strict: true, required: false, example: { version: 2 } },
      example: { ...sendingExample, status: "cancelled", version: 3 },
      errors: [...STATUS_ERRORS, ...JSON_BODY_ERRORS],
    },
  };
  const chosen = spec[action];
  return {
    operationId: `${action}BulkCampaign`,
    method: "POST",
    path: `/api/v1/campaigns/{id}/${action}`,
    tag: "Campaigns",
    summary: chosen.summary,
    description: chosen.description,
    auth: "apiKey",
    pathParams: [campaignIdParam],
    body: chosen.body,
    responses: [{ status: 200, description: "The campaign after the change.", schema: campaignSchema, example: chosen.example }],
    errors: chosen.errors,
  };
};

export const BULK_ENDPOINTS: Endpoint[] = [
  {
    operationId: "countAudience",
    method: "POST",
    path: "/api/v1/audiences/count",
    tag: "Audiences",
    summary: "Count an audience",
    description: "How many contacts a bulk campaign with these lists and segments would reach now (each contact once), and how many of the selected contacts are left out because they opted out.",
    auth: "apiKey",
    body: { schema: audienceCountRequestSchema, strict: true, required: true, example: AUDIENCE_EXAMPLE },
    responses: [{ status: 200, description: "The live count.", schema: audienceCountResponseSchema, example: { count: 1250, optedOutExcluded: 17, consent: { subscribed: 1211, unknown: 39 } } }],
    errors: ["not_found", ...JSON_BODY_ERRORS],
  },
  {
    operationId: "previewBulkMessage",
    method: "POST",
    path: "/api/v1/campaigns/preview",
    tag: "Campaigns",
    summary: "Preview a bulk message for real contacts",
    description:
      "Renders the template for the audience's contact number `index` (0-based, a stable order), lists that contact's empty variables and counts the audience's contacts with an empty variable. With `audience.excludeContactsWithEmptyVariables` those are left out of `total` and of the stepping.",
    auth: "apiKey",
    body: { schema: previewRequestSchema, strict: true, required: true, example: { audience: AUDIENCE_EXAMPLE, templateId: EXAMPLE_IDS.template, messageConfig: MESSAGE_CONFIG_EXAMPLE, index: 0 } },
    responses: [
      {
        status: 200,
        description: "The message for one contact.",
        schema: previewResponseSchema,
        example: {
          total: 1250,
          index: 0,
          contact: { id: EXAMPLE_IDS.contact, phone: "+351912345678", name: "Maria" },
          rendered: { text: "Hi Maria, our November picks are here.", preview: { header: null, body: "Hi Maria, our November picks are here.", footer: null, buttons: [] } },
          emptyVariables: [],
          contactsWithEmptyVariables: 3,
          contactsWithEmptyVariable: { "body.2": 3 },
        },
      },
    ],
    errors: ["not_found", ...JSON_BODY_ERRORS],
  },
  {
    operationId: "testSendCampaign",
    method: "POST",
    path: "/api/v1/campaigns/{id}/test-send",
    tag: "Campaigns",
    summary: "Send a test",
    description:
      "Sends the campaign's message to up to 10 phone numbers now, through the sender, ahead of bulk messages. A bulk campaign's test is rendered for the contact with that phone, else the audience's first contact; an empty variable shows its fallback, else `[attribute]`. A trigger campaign's test is rendered from `request`, an example request body validated exactly as a trigger request (422 with the same errors), with its phone field set to each phone; it works before deploying, uses the pending changes of a live campaign, and changes no contact. Test messages appear in the logs with `source: \"test\"` and are never counted in the campaign.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    body: { schema: testSendRequestSchema, strict: true, required: true, example: { phones: ["+14155552671"] } },
    responses: [
      {
        status: 202,
        description: "The test messages, queued.",
        schema: z.object({ data: z.array(messageSchema) }),
        example: {
          data: [
            {
              id: EXAMPLE_IDS.message,
              object: "message",
              direction: "outbound",
              status: "queued",
              campaignId: EXAMPLE_IDS.campaign,
              phone: "+14155552671",
              template: { name: "newsletter", language: "en_US" },
              text: "Hi Maria, our November picks are here.",
              wamid: null,
              error: null,
              attempts: 0,
              nextAttemptAt: null,
              repliedAt: null,
              source: "test",
              createdAt: EXAMPLE_TIME,
              updatedAt: EXAMPLE_TIME,
              sentAt: null,
              deliveredAt: null,
              readAt: null,
              failedAt: null,
            },
          ],
        },
      },
    ],
    errors: ["not_found", ...JSON_BODY_ERRORS, "launch_checks_failed", "invalid_status_transition"],
  },
  {
    operationId: "getBulkLaunchCheck",
    method: "GET",
    path: "/api/v1/campaigns/{id}/launch-check",
    tag: "Campaigns",
    summary: "Check a bulk campaign before launch",
    description:
      "What a launch would find now: every blocking problem (template not approved or not the sender's, unmapped variable, empty audience, rate above the sender's throughput, sender not set up, audience above the daily limit without `allowTierWait`), warnings (daily limit unknown), the audience size and its split by consent (a MARKETING template reaches only subscribed contacts unless `includeUnknownConsent`; the others are stored skipped, `no_consent`; unsubscribed contacts never), and the daily messaging limit: the tier, unique recipients of the last 24 h and what is left.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    responses: [
      {
        status: 200,
        description: "The checks.",
        schema: launchCheckResponseSchema,
        example: {
          ready: false,
          errors: [{ path: "tier", code: "tier_exceeded", message: "The daily messaging limit allows 1,750 more recipients now; the audience has 2,500. Launch with allowTierWait to send the rest as the rolling 24 hours free up." }],
          warnings: [],
          audienceCount: 2500,
          consent: { marketing: true, includeUnknown: false, subscribed: 2461, unknown: 39, unsubscribed: 12, skipped: 39, unknownWithEmptyVariables: 0 },
          skippedForEmptyVariables: 0,
          tier: { tier: "TIER_2K", limit: 2000, usedLast24h: 250, available: 1750 },
          exceedsTier: true,
          sendableNow: 1750,
          sendRatePerSecond: 40,
          estimatedDurationSeconds: 44,
        },
      },
    ],
    errors: ["not_found", "not_a_bulk_campaign"],
  },
  campaignAction("schedule"),
  campaignAction("launch"),
  campaignAction("cancel"),
  {
    operationId: "getBulkProgress",
    method: "GET",
    path: "/api/v1/campaigns/{id}/progress",
    tag: "Campaigns",
    summary: "Progress of a bulk campaign",
    description:
      "The cumulative funnel (sent ≥ delivered ≥ read; replied, failed and skipped apart; tests never counted), the top failure reasons, the rate of the last 10 s, the estimated finish and, while messages wait for the daily limit, when the next ones can go. Cheap enough to poll every 2–5 s.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    responses: [
      {
        status: 200,
        description: "Where the campaign stands.",
        schema: progressResponseSchema,
        example: {
          status: "sending",
          total: 2500,
          funnel: { queued: 1200, sent: 1290, delivered: 1100, read: 640, failed: 8, skipped: 2, replied: 57 },
          held: 750,
          topFailureReasons: [{ code: "131026", reason: "Message undeliverable.", count: 8 }],
          ratePerSecond: 39.6,
          estimatedFinishAt: "2026-11-21T14:03:19.000Z",
          waitingUntil: "2026-11-22T09:12:44.000Z",
        },
      },
    ],
    errors: ["not_found", "not_a_bulk_campaign"],
  },
  {
    operationId: "retargetBulkCampaign",
    method: "POST",
    path: "/api/v1/campaigns/{id}/retarget",
    tag: "Campaigns",
    summary: "Retarget a finished bulk campaign",
    description:
      "From a `completed` or `cancelled` campaign: a new draft with the same template, mapping and rate whose audience is exactly the contacts whose message `failed` (WhatsApp's per-user marketing limit included), was `not_delivered` (sent or failed, never delivered) or `not_read`, as `audience.contactIds` frozen now. 422 when no contact matches.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    body: { schema: retargetRequestSchema, strict: true, required: true, example: { audience: "failed", name: "November newsletter — failed" } },
    responses: [
      {
        status: 201,
        description: "The new draft.",
        schema: campaignSchema,
        example: {
          ...bulkCampaignExample,
          id: "cmp_3RtY8uIo2pAs6DfG",
          name: "November newsletter — failed",
          bulk: { ...bulkCampaignExample.bulk, audience: { listIds: [], segmentIds: [], contactIds: [EXAMPLE_IDS.contact] } },
        },
        headers: { Location: { description: "`/api/v1/campaigns/{id}` of the new campaign.", schema: { type: "string" }, required: true } },
      },
    ],
    errors: ["not_found", "not_a_bulk_campaign", "invalid_status_transition", ...JSON_BODY_ERRORS],
  },
];
