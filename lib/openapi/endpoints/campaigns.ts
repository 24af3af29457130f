// Endpoints of campaigns, their trigger, messages, logs and templates; spread into ENDPOINTS in ../registry.ts.
import { createCampaignSchema, lifecycleActionSchema, updateCampaignSchema } from "@/lib/campaigns/schemas";
import type { ErrorCode } from "@/lib/http/error-catalog";
import { LOG_STATUSES } from "@/lib/statuses/messages";
import { submitTemplateSchema, templatesQuerySchema } from "@/lib/templates/schemas";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint } from "../endpoint";
import { campaignIdParam, triggerEndpoint } from "./trigger";
import {
  campaignPageSchema,
  campaignSchema,
  EXAMPLE_IDS,
  listCampaignsQuerySchema,
  messagePageSchema,
  messageSchema,
  templateListSchema,
  templateSchema,
} from "../schemas";




const TRIGGER_CONFIG_EXAMPLE = {
  phoneField: "phone",
  phoneFallbacks: ["customer.phone"],
  countryField: null,
  fields: [
    { field: "first_name", fallbacks: ["customer.first_name"], attribute: "name", type: "string", required: false },
    { field: "order", fallbacks: [], attribute: "order_id", type: "string", required: true },
  ],
  example: null,
};
const MESSAGE_CONFIG_EXAMPLE = {
  variables: [
    { key: "body.1", attribute: "name", fallback: "there" },
    { key: "body.2", attribute: "order_id", fallback: null },
  ],
};

const draftCampaignExample = {
  id: EXAMPLE_IDS.campaign,
  name: "Order confirmation",
  kind: "trigger",
  status: "draft",
  triggerConfig: { phoneField: "phone", fields: [] },
  messageConfig: { variables: [] },
  templateId: null,
  template: null,
  senderId: EXAMPLE_IDS.sender,
  rateLimitPerMinute: 600,
  respectOptOut: true,
  sendPolicy: { quietHours: null, frequencyCap: null },
  journey: null,
  journeyVersion: 0,
  version: 1,
  deployedAt: null,
  draftRevision: null,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
  deployment: null,
};

const configuredCampaignExample = {
  ...draftCampaignExample,
  triggerConfig: TRIGGER_CONFIG_EXAMPLE,
  messageConfig: MESSAGE_CONFIG_EXAMPLE,
  templateId: EXAMPLE_IDS.template,
  template: { id: EXAMPLE_IDS.template, name: "order_confirmation", language: "en_US", status: "APPROVED" },
  version: 2,
};

const activeCampaignExample = {
  ...configuredCampaignExample,
  status: "active",
  version: 3,
  deployedAt: EXAMPLE_TIME,
  deployment: {
    webhookUrls: {
      trigger: `https://app.sendstream.example/api/campaigns/${EXAMPLE_IDS.campaign}/trigger`,
      outbound: `https://app.sendstream.example/outbound/${EXAMPLE_IDS.campaign}`,
    },
    limits: { senderThroughputPerSecond: 80, messagingTier: "Sandbox (test numbers only)", triggerRequestsPerMinute: 600 },
    samplePayload: { phone: "+14155552671", first_name: "Maria", order: "A-10482" },
    curl: `curl -X POST 'https://app.sendstream.example/api/campaigns/${EXAMPLE_IDS.campaign}/trigger' \\\n  -H 'Content-Type: application/json' \\\n  -H 'x-api-key: <API_KEY>' \\\n  -d '{"phone":"+14155552671","first_name":"Maria","order":"A-10482"}'`,
  },
};

/** An active campaign whose template text is being changed in a draft revision (triggers still send the live one). */
const revisedCampaignExample = {
  ...activeCampaignExample,
  version: 4,
  draftRevision: {
    name: "Order confirmation",
    triggerConfig: TRIGGER_CONFIG_EXAMPLE,
    messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: "friend" }, MESSAGE_CONFIG_EXAMPLE.variables[1]!] },
    templateId: EXAMPLE_IDS.template,
    rateLimitPerMinute: 600,
    respectOptOut: true,
    sendPolicy: { quietHours: null, frequencyCap: null },
    journey: null,
    savedAt: EXAMPLE_TIME,
    changes: ["messageConfig"],
  },
};

function withoutDeployment<T extends { deployment: unknown }>(campaign: T): Omit<T, "deployment"> {
  return Object.fromEntries(Object.entries(campaign).filter(([key]) => key !== "deployment")) as Omit<T, "deployment">;
}

const messageExample = {
  id: EXAMPLE_IDS.message,
  object: "message",
  direction: "outbound",
  status: "delivered",
  campaignId: EXAMPLE_IDS.campaign,
  phone: "+14155552671",
  template: { name: "order_confirmation", language: "en_US" },
  text: "Order confirmed\nHi Maria, thanks for your order! Your order number is A-10482. We will let you know as soon as it ships.\nDemo Shop",
  wamid: "wamid.HBgLMTQxNTU1NTI2NzEVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA",
  error: null,
  attempts: 1,
  nextAttemptAt: null,
  repliedAt: null,
  source: "trigger",
  createdAt: EXAMPLE_TIME,
  updatedAt: "2026-11-21T14:03:09.120Z",
  sentAt: "2026-11-21T14:03:07.890Z",
  deliveredAt: "2026-11-21T14:03:09.120Z",
  readAt: null,
  failedAt: null,
};

const lifecycle = (action: "deploy" | "pause" | "resume" | "archive" | "unarchive" | "publish" | "discard") => {
  const info = {
    deploy: {
      summary: "Deploy a campaign",
      description:
        "Runs the deploy checks and moves a `draft` campaign to `active`. When a check fails, nothing changes and the 422 response lists every failing check in `errors[]`.",
      example: activeCampaignExample,
      errors: ["deploy_checks_failed", "invalid_status_transition", "version_conflict"] as ErrorCode[],
    },
    pause: {
      summary: "Pause a campaign",
      description:
        "Moves an `active` campaign to `paused`: trigger requests get 409 until it is resumed. Pausing a paused campaign changes nothing. To change an active campaign there is no need to pause it: `PATCH` writes a draft revision and `publish` puts it live.",
      example: { ...activeCampaignExample, status: "paused", version: 4 },
      errors: ["invalid_status_transition", "version_conflict"] as ErrorCode[],
    },
    resume: {
      summary: "Resume a campaign",
      description:
        "Moves a paused trigger campaign back to `active` after running the deploy checks again (it may have been edited while paused), a paused bulk campaign back to `sending`. A bulk campaign that was paused because WhatsApp paused or disabled its template answers 409 `template_blocked` until the template is approved again.",
      example: { ...activeCampaignExample, version: 5 },
      errors: ["deploy_checks_failed", "template_blocked", "invalid_status_transition", "version_conflict"] as ErrorCode[],
    },
    archive: {
      summary: "Archive a campaign",
      description:
        "Archives a trigger campaign from any status, a bulk campaign when it is `draft`, `completed` or `cancelled` (409 otherwise: cancel it first). It stops accepting trigger requests and can no longer be edited (until it is unarchived); its messages and logs stay. Archiving twice changes nothing. Archived campaigns are left out of the list unless asked for (`status=archived`).",
      example: { ...configuredCampaignExample, status: "archived", version: 4, deployment: null },
      errors: ["invalid_status_transition", "version_conflict"] as ErrorCode[],
    },
    unarchive: {
      summary: "Unarchive a campaign",
      description:
        "Brings an `archived` campaign back. A trigger campaign becomes a `draft` (its deployment cleared; pending edits of a draft revision become the draft's configuration) and is deployed again like any draft; its webhook URLs stay the same. A bulk campaign becomes a `draft` if it never launched (its schedule cleared), otherwise `completed` or `cancelled`, so it never sends to its audience twice. 409 for a campaign that is not archived.",
      example: { ...configuredCampaignExample, version: 5 },
      errors: ["invalid_status_transition", "version_conflict"] as ErrorCode[],
    },
    publish: {
      summary: "Publish a live campaign's changes",
      description:
        "Puts the draft revision of an `active` (or `paused`) trigger campaign live: runs the deploy checks on the revision (422 `deploy_checks_failed` with every failing check, and nothing changes), then swaps it in with one update that also bumps `version` and writes a `campaign.published` audit row. A trigger request sees either the old or the new configuration, never a mix, and is never refused because of the change. 409 `nothing_to_publish` without a draft revision.",
      example: { ...activeCampaignExample, version: 5 },
      errors: ["deploy_checks_failed", "nothing_to_publish", "invalid_status_transition", "version_conflict"] as ErrorCode[],
    },
    discard: {
      summary: "Discard a live campaign's changes",
      description:
        "Drops the draft revision; the live configuration stays as it is. Without a draft revision nothing changes (the same campaign, same version).",
      example: { ...activeCampaignExample, version: 5 },
      errors: ["version_conflict"] as ErrorCode[],
    },
  }[action];
  return {
    operationId: `${action}Campaign`,
    method: "POST",
    path: `/api/v1/campaigns/{id}/${action}`,
    tag: "Campaigns",
    summary: info.summary,
    description: `${info.description} The body is optional; send \`{"version": n}\` to act only on that version.`,
    auth: "apiKey",
    pathParams: [campaignIdParam],
    body: { schema: lifecycleActionSchema, strict: true, required: false, example: { version: 2 } },
    responses: [{ status: 200, description: "The campaign after the action.", schema: campaignSchema, example: info.example }],
    errors: ["not_found", ...JSON_BODY_ERRORS, ...info.errors],
  } satisfies Endpoint;
};

export const CAMPAIGNS_ENDPOINTS: Endpoint[] = [
  {
    operationId: "listCampaigns",
    method: "GET",
    path: "/api/v1/campaigns",
    tag: "Campaigns",
    summary: "List campaigns",
    description: "Newest first, with message counts per status. Archived campaigns are left out unless `includeArchived=true` or `status=archived`.",
    auth: "apiKey",
    query: listCampaignsQuerySchema,
    responses: [
      {
        status: 200,
        description: "One page of campaigns.",
        schema: campaignPageSchema,
        example: {
          data: [{ ...withoutDeployment(activeCampaignExample), stats: { total: 3, queued: 0, sent: 3, delivered: 2, read: 1, failed: 0, skipped: 0, replied: 1 } }],
          nextCursor: "WyIyMDI2LTExLTIxVDE0OjAzOjA3LjUxMloiLCJjbXBfOFFtVDJ3THg0dlliOUtjUiJd",
        },
      },
    ],
    errors: ["validation_failed"],
    example: { query: { limit: "20" } },
  },
  {
    operationId: "createCampaign",
    method: "POST",
    path: "/api/v1/campaigns",
    tag: "Campaigns",
    summary: "Create a campaign",
    description:
      "Creates a `draft` trigger campaign with an empty mapping. Configure it with `PATCH`, then deploy it. `senderId` picks the sender it sends through (404 for a sender the workspace does not have); left out, the workspace's default sender.",
    auth: "apiKey",
    body: { schema: createCampaignSchema, strict: true, required: true, example: { name: "Order confirmation", senderId: EXAMPLE_IDS.sender } },
    responses: [
      {
        status: 201,
        description: "Created.",
        schema: campaignSchema,
        example: draftCampaignExample,
        headers: { Location: { description: "`/api/v1/campaigns/{id}` of the new campaign.", schema: { type: "string" }, required: true } },
      },
    ],
    errors: ["not_found", ...JSON_BODY_ERRORS],
  },
  {
    operationId: "getCampaign",
    method: "GET",
    path: "/api/v1/campaigns/{id}",
    tag: "Campaigns",
    summary: "Get a campaign",
    description: "The campaign with its configuration; once deployed, also its webhook URLs, sending limits and a ready trigger request.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    responses: [{ status: 200, description: "The campaign.", schema: campaignSchema, example: activeCampaignExample }],
    errors: ["not_found"],
  },
  {
    operationId: "updateCampaign",
    method: "PATCH",
    path: "/api/v1/campaigns/{id}",
    tag: "Campaigns",
    summary: "Update a campaign",
    description:
      "Changes the name, the trigger mapping, the template, the variable mapping or the rate limit; members you leave out stay as they are. `draft` and `paused` trigger campaigns change in place. An `active` trigger campaign (or a paused one that has a draft revision) is not changed: the changes go into its `draftRevision`, triggers keep using the live configuration, and `POST /api/v1/campaigns/{id}/publish` swaps the revision in (`…/discard` drops it); changes that bring the revision back to the live configuration leave no revision. Bulk campaigns change in `draft` and `scheduled`. Archived campaigns answer 409. Send `version` to refuse the change if someone else changed the campaign first.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    body: {
      schema: updateCampaignSchema,
      strict: true,
      required: true,
      example: { templateId: EXAMPLE_IDS.template, triggerConfig: TRIGGER_CONFIG_EXAMPLE, messageConfig: MESSAGE_CONFIG_EXAMPLE, version: 1 },
    },
    responses: [
      {
        status: 200,
        description: "The updated campaign; for an active campaign (as in the example) the live configuration unchanged and the changes in `draftRevision`.",
        schema: campaignSchema,
        example: revisedCampaignExample,
      },
    ],
    errors: ["not_found", ...JSON_BODY_ERRORS, "campaign_not_editable", "version_conflict"],
  },
  lifecycle("deploy"),
  lifecycle("pause"),
  lifecycle("resume"),
  lifecycle("archive"),
  lifecycle("unarchive"),
  lifecycle("publish"),
  lifecycle("discard"),
  triggerEndpoint(
    "/api/campaigns/{id}/trigger",
    "triggerCampaign",
    "Trigger a campaign",
    "Sends the campaign's template to one recipient (or up to 100) right away.",
  ),
  triggerEndpoint(
    "/outbound/{id}",
    "triggerCampaignOutbound",
    "Trigger a campaign (outbound URL)",
    "The same endpoint as `POST /api/campaigns/{id}/trigger`, at the `{api_url}/outbound/{id}` address some integrations expect.",
  ),
  {
    operationId: "getMessage",
    method: "GET",
    path: "/api/v1/messages/{id}",
    tag: "Messages",
    summary: "Get a message",
    description: "One message's status, WhatsApp id, error and timestamps (the `Location` of an accepted trigger request). `sending` reads as `queued`.",
    auth: "apiKey",
    pathParams: [{ name: "id", description: "The message's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.message }],
    responses: [{ status: 200, description: "The message.", schema: messageSchema, example: messageExample }],
    errors: ["not_found"],
  },
  {
    operationId: "listCampaignMessages",
    method: "GET",
    path: "/api/v1/campaigns/{id}/messages",
    tag: "Messages",
    summary: "List a campaign's messages",
    description:
      "The campaign's messages and the replies contacts sent to them (each with its `direction`), newest first, with keyset cursors that stay stable while messages arrive. Filter by status, phone digits, date range, direction and whether the contact replied. `counts` are of messages sent only.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    query: [
      { name: "status", description: `Comma-separated statuses: ${LOG_STATUSES.map((status) => `\`${status}\``).join(", ")}.`, schema: { type: "string" }, example: "delivered,read" },
      { name: "phone", description: "Digits of a phone number; matches anywhere in the number.", schema: { type: "string", maxLength: 32 } },
      { name: "from", description: "Created at or after: a UTC date (`2026-11-21`) or an ISO 8601 date-time.", schema: { type: "string" } },
      { name: "to", description: "Created before: a UTC date (the whole day is included) or an ISO 8601 date-time.", schema: { type: "string" } },
      {
        name: "direction",
        description: "`outbound`: only messages sent; `inbound`: only the replies contacts sent to the campaign's messages. Both when omitted; a `status` filter selects sent messages only (replies have no delivery status).",
        schema: { type: "string", enum: ["outbound", "inbound"] },
      },
      {
        name: "replied",
        description: "`true`: only messages the contact replied to (the campaign's `replied` count); `false`: only messages not replied to. Like `status`, it selects sent messages only, and `counts` ignore it.",
        schema: { type: "string", enum: ["true", "false"] },
      },
      { name: "step", description: "Only messages this journey step sent (its id; messages sent only).", schema: { type: "string", maxLength: 40 } },
      { name: "cursor", description: "`nextCursor` (older) or `prevCursor` (newer) from a previous page.", schema: { type: "string", maxLength: 512 } },
      { name: "limit", description: "Page size, 1–100 (default 50).", schema: { type: "integer", minimum: 1, maximum: 100, default: 50 }, example: 20 },
      { name: "include", description: "`counts` adds the cumulative funnel (the campaigns list's numbers) for the same filters.", schema: { type: "string", enum: ["counts"] } },
    ],
    responses: [
      {
        status: 200,
        description: "One page of messages.",
        schema: messagePageSchema,
        example: {
          data: [messageExample],
          nextCursor: null,
          prevCursor: "WyJuIiwiMjAyNi0xMS0yMVQxNDowMzowNy41MTIwMDBaIiwibXNnXzVKa0wwcFJ0OHlCbjJYY0YiXQ",
          hasNewer: false,
        },
      },
    ],
    errors: ["not_found", "validation_failed"],
    example: { query: { limit: "20" } },
  },
  {
    operationId: "exportCampaignLogs",
    method: "GET",
    path: "/api/v1/campaigns/{id}/logs.csv",
    tag: "Messages",
    summary: "Export a campaign's logs as CSV",
    description:
      "Every message the filters select and the replies contacts sent to them, streamed as CSV with the columns `created_at, message_id, phone_number, template, message, status, error_code, error_reason, sent_at, delivered_at, read_at, replied_at, direction, source`, the attribute columns when asked for, and last `journey_step` (timestamps in ISO 8601 UTC). `replied_at` is when the contact first replied to a message sent (the campaign's `replied` step). `source` says how a message was sent: `bulk`, `trigger` or `test` (a test send), `reply` for a reply. `journey_step` names the journey step that sent a message (`remind (Reminder)`: its id and name), empty for other messages. Test sends are left out unless `include_tests=true`, as the campaign's counts leave them out. A reply has `direction` `inbound`, status `received`, no template, and what the contact sent as its message (`Button: …`, `image (image/jpeg): caption`, `Location: …`). Cells a spreadsheet would run as a formula are escaped.",
    auth: "apiKey",
    pathParams: [campaignIdParam],
    query: [
      { name: "status", description: "Comma-separated statuses.", schema: { type: "string" } },
      { name: "phone", description: "Digits of a phone number.", schema: { type: "string", maxLength: 32 } },
      { name: "from", description: "Created at or after (UTC date or ISO 8601 date-time).", schema: { type: "string" } },
      { name: "to", description: "Created before (UTC date or ISO 8601 date-time).", schema: { type: "string" } },
      { name: "direction", description: "`outbound` (messages sent) or `inbound` (replies); both when omitted.", schema: { type: "string", enum: ["outbound", "inbound"] } },
      { name: "replied", description: "`true`: only messages the contact replied to; `false`: only those not replied to (messages sent only).", schema: { type: "string", enum: ["true", "false"] } },
      { name: "step", description: "Only messages this journey step sent (its id; messages sent only).", schema: { type: "string", maxLength: 40 } },
      {
        name: "attributes",
        description: "`true` adds one column per contact attribute the campaign maps (`attributes.<key>`, the contact's current value) after the fixed columns.",
        schema: { type: "string", enum: ["true", "false"], default: "false" },
      },
      {
        name: "include_tests",
        description: "`true` adds the campaign's test sends (`source` `test`), which the export leaves out by default as the counts do.",
        schema: { type: "string", enum: ["true", "false"], default: "false" },
      },
    ],
    responses: [
      {
        status: 200,
        description: "The CSV file (`Content-Disposition: attachment`).",
        contentType: "text/csv",
        textExample:
          "created_at,message_id,phone_number,template,message,status,error_code,error_reason,sent_at,delivered_at,read_at,replied_at,direction,source\r\n2026-11-21T14:05:12.640Z,inm_3WqE5rTy7uIo9PaS,\"+14155552671\",,\"Button: Track my order\",received,,,,,,,inbound,reply\r\n2026-11-21T14:03:07.512Z,msg_5JkL0pRt8yBn2XcF,\"+14155552671\",\"order_confirmation (en_US)\",\"Order confirmed…\",delivered,,,2026-11-21T14:03:07.890Z,2026-11-21T14:03:09.120Z,,2026-11-21T14:05:12.640Z,outbound,trigger\r\n",
        headers: { "Content-Disposition": { description: "`attachment; filename=\"…\"`.", schema: { type: "string" }, required: true } },
      },
    ],
    errors: ["not_found", "validation_failed"],
  },
  {
    operationId: "listTemplates",
    method: "GET",
    path: "/api/v1/templates",
    tag: "Templates",
    summary: "List templates",
    description:
      "The templates a sender can use (the sandbox's demo templates, or those of its WhatsApp Business Account synced from WhatsApp Manager), approved first, each with the variables a campaign must map. Without `senderId`, the default sender's.",
    auth: "apiKey",
    query: templatesQuerySchema,
    responses: [
      {
        status: 200,
        description: "Every template (one page; `nextCursor` is always null).",
        schema: templateListSchema,
        example: {
          data: [
            {
              id: EXAMPLE_IDS.template,
              name: "order_confirmation",
              language: "en_US",
              category: "UTILITY",
              status: "APPROVED",
              parameterFormat: "POSITIONAL",
              components: [
                { type: "HEADER", format: "TEXT", text: "Order confirmed" },
                { type: "BODY", text: "Hi {{1}}, thanks for your order! Your order number is {{2}}. We will let you know as soon as it ships." },
                { type: "FOOTER", text: "Demo Shop" },
              ],
              variables: [
                { key: "body.1", component: "body", name: "1", example: "Maria" },
                { key: "body.2", component: "body", name: "2", example: "A-10482" },
              ],
              sandbox: true,
              syncedAt: null,
              statusReason: null,
              submittedAt: null,
            },
          ],
          nextCursor: null,
        },
      },
    ],
    errors: ["not_found", "validation_failed"],
  },
  {
    operationId: "submitTemplate",
    method: "POST",
    path: "/api/v1/templates",
    tag: "Templates",
    summary: "Submit a template for review",
    description:
      "Checks the template against WhatsApp's rules (name: lowercase letters, digits and underscores, ≤512; header text ≤60 with at most one variable; body ≤1024 with named `{{first_name}}` or numbered `{{1}}` variables, not both, none at its start or end, each with an example in `examples`; footer ≤60 without variables; at most 10 buttons: quick replies ≤25 characters kept together, at most 2 link buttons whose URL may end with one variable, 1 call button, 1 copy-code button ≤15 characters) and submits it to the sender's WhatsApp Business Account (`POST /{waba-id}/message_templates`). It is stored `PENDING`; WhatsApp's review then approves or rejects it (with `statusReason`), and may later pause or disable it. The sandbox sender reviews it itself after a few seconds: it rejects a body with fewer than 3 words per variable. A broken rule answers 422 with one entry per problem in `errors` (nothing is submitted); a name already used in that language 409.",
    auth: "apiKey",
    body: {
      schema: submitTemplateSchema,
      strict: true,
      required: true,
      example: {
        name: "winter_sale",
        category: "MARKETING",
        language: "en_US",
        header: { type: "TEXT", text: "Winter sale" },
        body: "Hi {{first_name}}, our winter sale starts today: 20% off everything until Sunday.",
        footer: "Reply STOP to opt out",
        buttons: [{ type: "URL", text: "Shop now", url: "https://shop.example.com/sale" }],
        examples: { first_name: "Maria" },
      },
    },
    responses: [
      {
        status: 201,
        description: "Submitted: the stored template, `PENDING` until the review decides.",
        schema: templateSchema,
        example: {
          id: EXAMPLE_IDS.template,
          name: "winter_sale",
          language: "en_US",
          category: "MARKETING",
          status: "PENDING",
          statusReason: null,
          parameterFormat: "NAMED",
          components: [
            { type: "HEADER", format: "TEXT", text: "Winter sale" },
            { type: "BODY", text: "Hi {{first_name}}, our winter sale starts today: 20% off everything until Sunday.", example: { body_text_named_params: [{ param_name: "first_name", example: "Maria" }] } },
            { type: "FOOTER", text: "Reply STOP to opt out" },
            { type: "BUTTONS", buttons: [{ type: "URL", text: "Shop now", url: "https://shop.example.com/sale" }] },
          ],
          variables: [{ key: "body.first_name", component: "body", name: "first_name", example: "Maria" }],
          sandbox: true,
          syncedAt: null,
          submittedAt: EXAMPLE_TIME,
        },
      },
    ],
    errors: [...JSON_BODY_ERRORS, "not_found", "template_exists", "template_refused", "sender_not_configured", "graph_error"],
  },
];
