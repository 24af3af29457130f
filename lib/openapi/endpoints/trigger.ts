// The trigger endpoint (and its dry run) as documented: shared by the campaign endpoints in ./campaigns.ts.
import { EXAMPLE_TIME, type Endpoint, type Parameter } from "../endpoint";
import { z } from "zod";
import { EXAMPLE_IDS, triggerAcceptedSchema, triggerBodySchema, triggerDryRunSchema } from "../schemas";
import { triggerIgnoredSchema } from "./sources";

export const campaignIdParam: Parameter = { name: "id", description: "The campaign's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.campaign };

const rateLimitHeaders = {
  "RateLimit-Policy": { description: "The limits that apply, e.g. `\"key\";q=600;w=60, \"campaign\";q=600;w=60`.", schema: { type: "string" } },
  RateLimit: { description: "What is left of the tightest limit in the current window, e.g. `\"campaign\";r=599;t=42`.", schema: { type: "string" } },
};

export const triggerEndpoint = (path: string, operationId: string, summary: string, note: string): Endpoint => ({
  operationId,
  method: "POST",
  path,
  tag: "Trigger",
  summary,
  description: `${note} The body is one recipient object, or an array of 1–100 for a batch. Each object holds the phone number in E.164 (in the field the campaign maps to \`phoneNumber\`, \`phone\` by default) and the campaign's mapped fields, checked against their types and required flags; unmapped fields are ignored. Lenient where nothing is lost: a number sent for a \`string\` field is taken as its decimal text (\`10482\` → \`"10482"\`; a number with no exact decimal text, such as \`1e21\` or an integer past 2^53, gets 422: send it as a string), and a phone number written with a leading \`+\` and spaces, dots, dashes or parentheses (\`+1 (415) 555-2671\`) is normalised to E.164 (\`+14155552671\`); a number without the \`+\` gets 422, as its country would be a guess. All or nothing: when any item fails, nothing is stored or sent. Accepted messages are queued and sent right after the response, except to contacts who opted out when the campaign respects opt-outs (\`respectOptOut\`, the default): those are recorded with status \`skipped\` and error \`opted_out\`, still answered 202, and never sent; so are messages over the campaign's frequency cap (\`sendPolicy.frequencyCap\`, error \`frequency_cap\`). A message accepted inside the campaign's quiet hours (\`sendPolicy.quietHours\`, in the contact's time zone: their \`timezone\` attribute, else a guess from the phone's country) waits until they end. Send \`Idempotency-Key\` to make retries safe: the same key on the same campaign within 24 hours returns the first response with \`Idempotent-Replay: true\`. Every call, accepted or refused, is kept for 7 days in the campaign's request log (\`GET /api/v1/campaigns/{id}/requests\`, the Requests tab in the app).\n\nShops that cannot send a key call the same URL with no key: a campaign whose source (\`PUT /api/v1/campaigns/{id}/source\`) is \`shopify\`, \`woocommerce\`, \`stripe\` or \`standard_webhooks\` verifies the sender's signature over the raw body (see the security schemes). A missing or wrong signature, or one made more than 5 minutes from now, is 401 \`invalid_signature\` (logged); a campaign without a signed source answers a call without a key with the usual 401. The sender's delivery id answers with its first response for 72 hours, so retries never send twice. A topic the source does not take is answered 202 \`{ "status": "ignored", "reason": … }\` and sends nothing (no 4xx, so the shop does not retry it); WooCommerce's creation ping is answered 200 the same way.`,
  auth: "apiKey",
  signedSources: true,
  pathParams: [campaignIdParam],
  query: [
    {
      name: "dryRun",
      description: "`true`: validate and render only, store and send nothing (200 with the rendered message).",
      schema: { type: "string", enum: ["true", "false"] },
      example: "true",
    },
  ],
  headers: [
    {
      name: "Idempotency-Key",
      description: "Up to 255 characters; repeats of the same key and body within 24 hours return the first response and send nothing new.",
      schema: { type: "string", maxLength: 255 },
      example: "order-A-10482",
    },
  ],
  body: {
    schema: triggerBodySchema,
    strict: false,
    required: true,
    description: "One recipient object or an array of 1–100 of them.",
    example: { phone: "+14155552671", first_name: "Maria", order: "A-10482" },
  },
  responses: [
    {
      status: 202,
      description:
        "Accepted: the message is queued, or `skipped` when the contact opted out (an array body answers `{ data: [...] }`, each item with its own status). A journey campaign (one with `journey`) answers a `journey_run` per item instead: the contact entered its first step (`active`), or `skipped` (opted out, or refused by the journey's re-entry rule, error `journey_reentry`); its steps send the messages. A signed delivery whose topic the source does not take: `{ status: \"ignored\", reason }`, nothing sent.",
      schema: z.union([triggerAcceptedSchema, triggerIgnoredSchema]),
      example: { id: EXAMPLE_IDS.message, status: "queued", campaignId: EXAMPLE_IDS.campaign, phone: "+14155552671", createdAt: EXAMPLE_TIME },
      headers: {
        Location: { description: "`/api/v1/messages/{id}` of the queued message (object bodies); `/api/v1/journey-runs/{id}` of the run a journey campaign entered.", schema: { type: "string" } },
        "Idempotent-Replay": { description: "`true` when this is the stored response of an earlier request with the same Idempotency-Key.", schema: { type: "string" } },
        ...rateLimitHeaders,
      },
    },
    {
      status: 200,
      description: "Dry run (`?dryRun=true`): the rendered message and the Cloud API template object; nothing stored or sent. Also WooCommerce's creation ping to a `woocommerce` source: `{ status: \"ignored\", reason }`.",
      schema: z.union([triggerDryRunSchema, triggerIgnoredSchema]),
      example: {
        dryRun: true,
        status: "valid",
        campaignId: EXAMPLE_IDS.campaign,
        phone: "+14155552671",
        text: "Order confirmed\nHi Maria, thanks for your order! Your order number is A-10482. We will let you know as soon as it ships.\nDemo Shop",
        template: {
          name: "order_confirmation",
          language: { code: "en_US" },
          components: [{ type: "body", parameters: [{ type: "text", text: "Maria" }, { type: "text", text: "A-10482" }] }],
        },
        attributes: { name: "Maria", order_id: "A-10482", phoneNumber: "+14155552671" },
      },
    },
  ],
  errors: [
    "malformed_json",
    "not_found",
    "campaign_not_active",
    "not_a_trigger_campaign",
    "campaign_not_sendable",
    "idempotency_conflict",
    "payload_too_large",
    "unsupported_media_type",
    "validation_failed",
    "idempotency_key_reused",
    "invalid_idempotency_key",
    "rate_limited",
    "invalid_signature",
  ],
});
