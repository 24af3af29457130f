// The request log of a campaign's trigger endpoint; spread into ENDPOINTS in ../registry.ts.
import { z } from "zod";
import { DEFAULT_REQUESTS_PAGE_SIZE, MAX_REQUESTS_PAGE_SIZE, REQUEST_OUTCOMES } from "@/lib/trigger/requests-query";
import { EXAMPLE_TIME, type Endpoint } from "../endpoint";
import { EXAMPLE_IDS } from "../schemas";

const REQUEST_ID = "req_6TgH1jKd9LmN3PqR";

const fieldErrorSchema = z.object({ path: z.string(), code: z.string(), message: z.string() });

export const triggerRequestSchema = z.object({
  id: z.string().meta({ description: "Opaque identifier (starts with `req_`).", example: REQUEST_ID }),
  receivedAt: z.iso.datetime().meta({ description: "When the call was answered (ISO 8601, UTC).", example: EXAMPLE_TIME }),
  status: z.number().int().meta({ description: "The HTTP status the caller got.", example: 422 }),
  outcome: z.enum(["accepted", "rejected", "ignored"]).meta({
    description: "`accepted` for 2xx, `rejected` for every 4xx or 5xx, `ignored` for a signed delivery answered 2xx that sent nothing (a topic the source does not take, WooCommerce's ping).",
  }),
  ignoredReason: z.string().nullable().meta({ description: "Why an ignored delivery sent nothing; null otherwise." }),
  dryRun: z.boolean().meta({ description: "The call was a dry run (`?dryRun=true`)." }),
  key: z
    .object({ id: z.string().nullable(), name: z.string().nullable() })
    .nullable()
    .meta({ description: "The API key that made the call, with its name at the time." }),
  source: z
    .object({ kind: z.string(), topic: z.string().nullable(), deliveryId: z.string().nullable() })
    .nullable()
    .meta({ description: "A delivery signed by the campaign's source: its kind, the topic and the delivery id the sender named. Null for a call with an API key." }),
  requestId: z.string().nullable().meta({ description: "The `X-Request-Id` of the response." }),
  error: z
    .object({ code: z.string(), title: z.string(), detail: z.string(), errors: z.array(fieldErrorSchema).optional() })
    .nullable()
    .meta({ description: "For a refusal: the problem's code, title, detail and field errors, as the caller received them." }),
  messageCount: z.number().int().meta({ description: "Messages the call queued or skipped; 0 for a refusal or a dry run." }),
  body: z.string().meta({ description: "The request body as received, up to 8 KiB. Headers are never kept." }),
  bodyBytes: z.number().int().meta({ description: "Size of the whole body in bytes." }),
  bodyTruncated: z.boolean().meta({ description: "`true` when the body was longer than the 8 KiB kept." }),
});

export const triggerRequestPageSchema = z.object({
  data: z.array(triggerRequestSchema),
  nextCursor: z.string().nullable().meta({ description: "Reads the next (older) page; null on the last one." }),
});

export const REQUESTS_ENDPOINTS: Endpoint[] = [
  {
    operationId: "listCampaignRequests",
    method: "GET",
    path: "/api/v1/campaigns/{id}/requests",
    tag: "Trigger",
    summary: "List a campaign's trigger requests",
    description:
      "Every call to the campaign's trigger endpoint in the last 7 days, accepted or refused, newest first: when, which key, the status, the problem detail and the body (up to 8 KiB; headers, and so credentials, are never stored). Answers \"why did this customer not get the message?\" for calls that were refused. Calls appear within a second of their response. The bodies hold customers' personal data: in the web app, only owners and admins read this log.",
    auth: "apiKey",
    pathParams: [{ name: "id", description: "The campaign's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.campaign }],
    query: [
      {
        name: "outcome",
        description: "`accepted` (2xx that sent), `rejected` (4xx and 5xx), `ignored` (signed deliveries answered without sending) or `all` (the default).",
        schema: { type: "string", enum: [...REQUEST_OUTCOMES], default: "all" },
        example: "rejected",
      },
      { name: "topic", description: "Only signed deliveries of this topic, e.g. `orders/create`.", schema: { type: "string", maxLength: 100 }, example: "orders/create" },
      { name: "cursor", description: "`nextCursor` from a previous page.", schema: { type: "string", maxLength: 512 } },
      {
        name: "limit",
        description: `Page size, 1–${MAX_REQUESTS_PAGE_SIZE} (default ${DEFAULT_REQUESTS_PAGE_SIZE}).`,
        schema: { type: "integer", minimum: 1, maximum: MAX_REQUESTS_PAGE_SIZE, default: DEFAULT_REQUESTS_PAGE_SIZE },
        example: 20,
      },
    ],
    responses: [
      {
        status: 200,
        description: "One page of requests.",
        schema: triggerRequestPageSchema,
        example: {
          data: [
            {
              id: REQUEST_ID,
              receivedAt: EXAMPLE_TIME,
              status: 422,
              outcome: "rejected",
              ignoredReason: null,
              dryRun: false,
              key: { id: EXAMPLE_IDS.apiKey, name: "Shopify" },
              source: null,
              requestId: "3f6c1a52-8d0e-4c1b-9a57-0c2d4e6f8a10",
              error: {
                code: "validation_failed",
                title: "Validation failed",
                detail: "The request did not pass validation.",
                errors: [{ path: "phone", code: "invalid_phone", message: "The phone number has no + and country code; the country would be a guess, so it is refused. Send it in E.164 format, such as +14155552671." }],
              },
              messageCount: 0,
              body: '{"phone":"4155552671","order":"A-10482"}',
              bodyBytes: 41,
              bodyTruncated: false,
            },
          ],
          nextCursor: null,
        },
      },
    ],
    errors: ["not_found", "validation_failed"],
    example: { query: { outcome: "rejected" } },
  },
];
