// A trigger campaign's source (how callers without an API key authenticate); spread into
// ENDPOINTS in ../registry.ts.
import { z } from "zod";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter } from "../endpoint";
import { EXAMPLE_IDS } from "../schemas";
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS, MAX_TOPICS, SOURCE_KINDS } from "@/lib/sources/kinds";
import { putSourceSchema, setSecretSchema } from "@/lib/sources/schemas";

export { putSourceSchema, setSecretSchema };

const campaignIdParam: Parameter = { name: "id", description: "The campaign's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.campaign };

export const triggerIgnoredSchema = z.object({
  status: z.literal("ignored"),
  reason: z.string().meta({ description: "Why nothing was sent (also in the request log)." }),
});

export const campaignSourceSchema = z.object({
  kind: z.enum(SOURCE_KINDS).meta({ description: "`api_key` (the default: callers send a key) or the shop whose signature the trigger endpoint verifies." }),
  topics: z.array(z.string()).meta({
    description: `The topics taken (at most ${MAX_TOPICS}); empty takes every topic. Shopify and WooCommerce name it in a header (\`orders/create\`, \`order.created\`), Stripe and Standard Webhooks in the body's \`type\`.`,
  }),
  secret: z
    .object({
      set: z.boolean(),
      last4: z.string().nullable().meta({ description: "The secret's last four characters, to recognise it." }),
      createdAt: z.iso.datetime().nullable(),
      previousExpiresAt: z.iso.datetime().nullable().meta({ description: "While a rolled secret still verifies: until when." }),
    })
    .meta({ description: "The signing secret, never shown again after it is set." }),
  url: z.string().meta({ description: "The URL to give the shop: the trigger endpoint, with no key in it." }),
});

export const sourceSecretSchema = z.object({
  secret: z.string().meta({ description: "The signing secret. Shown this once: store it in the shop's webhook settings now." }),
  source: campaignSourceSchema,
});

const exampleSource = (kind: (typeof SOURCE_KINDS)[number], set: boolean) => ({
  kind,
  topics: kind === "api_key" ? [] : ["orders/create"],
  secret: { set, last4: set ? "Xk3p" : null, createdAt: set ? EXAMPLE_TIME : null, previousExpiresAt: null },
  url: `https://app.sendstream.example/api/campaigns/${EXAMPLE_IDS.campaign}/trigger`,
});

export const SOURCES_ENDPOINTS: Endpoint[] = [
  {
    operationId: "getCampaignSource",
    method: "GET",
    path: "/api/v1/campaigns/{id}/source",
    tag: "Campaigns",
    summary: "Get a campaign's source",
    description:
      "How a trigger campaign's callers authenticate: with an API key (`api_key`, the default) or with a shop's signature over the body (`shopify`, `woocommerce`, `stripe`, `standard_webhooks`), and the topics it takes. The source lives here, not in the campaign's own JSON. A bulk campaign has no source (409).",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    responses: [{ status: 200, description: "The campaign's source.", schema: campaignSourceSchema, example: exampleSource("shopify", true) }],
    errors: ["not_found", "not_a_trigger_campaign"],
  },
  {
    operationId: "putCampaignSource",
    method: "PUT",
    path: "/api/v1/campaigns/{id}/source",
    tag: "Campaigns",
    summary: "Set a campaign's source",
    description:
      "Chooses the source and its topics. Changing the kind drops the signing secret (each shop signs its own way): set a new one with `POST …/source/secret`. Until a signed source has a secret, deliveries to it are refused with 401. Calls with an API key keep working whatever the source.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    body: { schema: putSourceSchema, strict: true, required: true, example: { kind: "shopify", topics: ["orders/create"] } },
    responses: [{ status: 200, description: "The campaign's source.", schema: campaignSourceSchema, example: exampleSource("shopify", false) }],
    errors: ["not_found", "not_a_trigger_campaign", ...JSON_BODY_ERRORS],
  },
  {
    operationId: "setCampaignSourceSecret",
    method: "POST",
    path: "/api/v1/campaigns/{id}/source/secret",
    tag: "Campaigns",
    summary: "Set or roll a source's signing secret",
    description: `Sets the secret the shop signs with: pasted (\`secret\`, 8–256 printable characters, as the shop shows it; Stripe's starts with \`whsec_\`) or, without one, generated (\`whsec_…\` for Standard Webhooks, 32 random characters otherwise). The answer is the only time the secret is shown; it is stored encrypted. The secret it replaces keeps verifying for \`overlapHours\` (0–${MAX_OVERLAP_HOURS}, default ${DEFAULT_OVERLAP_HOURS}), so the shop can be switched over without refused deliveries.`,
    auth: "apiKey",
    pathParams: [campaignIdParam],
    body: { schema: setSecretSchema, strict: true, required: false, example: { overlapHours: 24 } },
    responses: [
      {
        status: 201,
        description: "The new secret (shown once) and the source.",
        schema: sourceSecretSchema,
        example: { secret: "q7Vd2LxN9pRtB4mKs8WcY1hJ6fZa0Xk3p", source: exampleSource("shopify", true) },
      },
    ],
    errors: ["not_found", "not_a_trigger_campaign", "source_not_signed", ...JSON_BODY_ERRORS],
  },
];
