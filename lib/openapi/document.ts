// Builds the OpenAPI 3.1 document from the endpoint registry and the zod schemas.
import { z } from "zod";
import { createCampaignSchema, lifecycleActionSchema, updateCampaignSchema } from "@/lib/campaigns/schemas";
import { upsertContactSchema } from "@/lib/contacts/schemas";
import { problemType } from "@/lib/http/problem";
import { ERROR_CATALOG, errorEntry, type ErrorCode } from "@/lib/http/error-catalog";
import { endpointErrors, ENDPOINTS, TAGS, type Endpoint, type Parameter, type SuccessResponse } from "./registry";
import {
  campaignListItemSchema,
  campaignPageSchema,
  campaignSchema,
  contactSchema,
  fieldErrorSchema,
  meSchema,
  messagePageSchema,
  messageSchema,
  inboundMessageSchema,
  problemSchema,
  templateListSchema,
  templateSchema,
  triggerAcceptedSchema,
  triggerBodySchema,
  triggerDryRunSchema,
} from "./schemas";
import { conversationEventSchema, conversationSchema } from "./conversation-schemas";
import { campaignSourceSchema, putSourceSchema, setSecretSchema, sourceSecretSchema, triggerIgnoredSchema } from "./endpoints/sources";

export type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

/** Schemas published under `components.schemas` (and referenced by `$ref` wherever they are used). */
const NAMED_SCHEMAS: [string, z.ZodType, "request" | "response"][] = [
  ["Problem", problemSchema, "response"],
  ["FieldError", fieldErrorSchema, "response"],
  ["Campaign", campaignSchema, "response"],
  ["CampaignListItem", campaignListItemSchema, "response"],
  ["CampaignPage", campaignPageSchema, "response"],
  ["Template", templateSchema, "response"],
  ["TemplateList", templateListSchema, "response"],
  ["Contact", contactSchema, "response"],
  ["Message", messageSchema, "response"],
  ["InboundMessage", inboundMessageSchema, "response"],
  ["Conversation", conversationSchema, "response"],
  ["ConversationEvent", conversationEventSchema, "response"],
  ["MessagePage", messagePageSchema, "response"],
  ["Me", meSchema, "response"],
  ["TriggerAccepted", triggerAcceptedSchema, "response"],
  ["TriggerDryRun", triggerDryRunSchema, "response"],
  ["CreateCampaignRequest", createCampaignSchema, "request"],
  ["UpdateCampaignRequest", updateCampaignSchema, "request"],
  ["CampaignActionRequest", lifecycleActionSchema, "request"],
  ["UpsertContactRequest", upsertContactSchema, "request"],
  ["TriggerRequest", triggerBodySchema, "request"],
  ["TriggerIgnored", triggerIgnoredSchema, "response"],
  ["CampaignSource", campaignSourceSchema, "response"],
  ["SourceSecret", sourceSecretSchema, "response"],
  ["PutCampaignSourceRequest", putSourceSchema, "request"],
  ["SetSourceSecretRequest", setSecretSchema, "request"],
];

/** The trigger endpoint's credentials: an API key, or a delivery signed by the campaign's source. */
const SIGNED_SOURCE_SECURITY = [{ apiKeyHeader: [] }, { bearerAuth: [] }, { ShopifyHmac: [] }, { WooCommerceSignature: [] }, { StripeSignature: [] }, { StandardWebhooks: [] }];

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), in its input form (what a client
 * sends; for responses the input and output forms are the same). `strict` marks every object
 * that does not allow extra members with `additionalProperties: false`, as the API enforces.
 */
export function toJsonSchema(schema: z.ZodType, options: { strict?: boolean } = {}): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    override: (ctx) => {
      const node = ctx.jsonSchema as JsonSchema;
      if (options.strict && node.type === "object" && node.properties && node.additionalProperties === undefined) {
        node.additionalProperties = false;
      }
    },
  }) as JsonSchema;
  delete json.$schema;
  return hoistDefinitions(json, Boolean(options.strict));
}

/**
 * Schemas with a registered id (`.meta({ id })`, e.g. `Journey`) come out of zod as `$defs` of the
 * schema that uses them; the document keeps one copy under `components.schemas`, with refs to it.
 * A strict copy wins: requests refuse unknown members, and responses never have any.
 */
const DEFINITIONS = new Map<string, JsonSchema>();

function hoistDefinitions(json: JsonSchema, strict: boolean): JsonSchema {
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return json;
  delete json.$defs;
  const rewrite = (value: JsonSchema) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [name, def] of Object.entries(defs)) if (strict || !DEFINITIONS.has(name)) DEFINITIONS.set(name, rewrite(def));
  return rewrite(json);
}

/**
 * The name under `components.schemas` of each published schema: the objects and bodies above under
 * their own names, and every other JSON request body under its first operation's id (`createList` →
 * `CreateListRequest`), so that a generated client has a type to import for each body, as for each object.
 */
const SCHEMA_NAMES: Map<z.ZodType, string> = (() => {
  const names = new Map<z.ZodType, string>(NAMED_SCHEMAS.map(([name, schema]) => [schema, name]));
  const taken = new Set(names.values());
  for (const endpoint of ENDPOINTS) {
    if (!endpoint.body || names.has(endpoint.body.schema)) continue;
    const name = `${endpoint.operationId[0]!.toUpperCase()}${endpoint.operationId.slice(1)}Request`;
    if (taken.has(name)) throw new Error(`Two request bodies would be published as ${name}: name one in NAMED_SCHEMAS.`);
    names.set(endpoint.body.schema, name);
    taken.add(name);
  }
  return names;
})();

function schemaRef(schema: z.ZodType, strict = false): JsonSchema {
  const name = SCHEMA_NAMES.get(schema);
  return name ? { $ref: `#/components/schemas/${name}` } : toJsonSchema(schema, { strict });
}

function parameter(where: "path" | "query" | "header", p: Parameter): JsonSchema {
  return {
    name: p.name,
    in: where,
    description: p.description,
    required: where === "path" ? true : Boolean(p.required),
    schema: p.schema,
    ...(p.example !== undefined ? { example: p.example } : {}),
  };
}

/** Query parameters of an endpoint, each with its JSON Schema and description. */
export function queryParameters(endpoint: Endpoint): Parameter[] {
  if (!endpoint.query) return [];
  if (Array.isArray(endpoint.query)) return endpoint.query;
  const shape = endpoint.query.shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, member]) => {
    const schema = toJsonSchema(member);
    const { description, example, ...rest } = schema;
    return {
      name,
      description: typeof description === "string" ? description : "",
      schema: rest,
      required: !member.safeParse(undefined).success,
      ...(example !== undefined ? { example: example as string | number } : {}),
    };
  });
}

export function problemExample(code: ErrorCode): Record<string, unknown> {
  const entry = errorEntry(code);
  return {
    type: problemType(code),
    title: entry.title,
    status: entry.status,
    detail: entry.description.replace(/`/g, ""),
    ...(entry.status === 422 ? { errors: [{ path: code === "deploy_checks_failed" ? "message.template" : "name", code: "invalid", message: "…" }] } : {}),
    requestId: "5b0c1e9a-2f4d-4c7e-9a41-6f3d2b8e7c10",
  };
}

const ERROR_HEADERS: Partial<Record<ErrorCode, Record<string, JsonSchema>>> = {
  unauthorized: { "WWW-Authenticate": { description: 'Always `Bearer realm="sendstream"` (with an error attribute).', schema: { type: "string" }, required: true } },
  method_not_allowed: { Allow: { description: "The methods the path supports.", schema: { type: "string" }, required: true } },
  rate_limited: {
    "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" }, required: true },
    RateLimit: { description: "What is left of the limit.", schema: { type: "string" } },
    "RateLimit-Policy": { description: "The limits that apply.", schema: { type: "string" } },
  },
  service_unavailable: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" }, required: true } },
  idempotency_conflict: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" }, required: true } },
  too_many_failed_authentications: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" }, required: true } },
};

/** The headers of the codes that share a status; one is required only when every code sends it. */
function statusHeaders(codes: ErrorCode[]): Record<string, JsonSchema> {
  const headers: Record<string, JsonSchema> = {};
  for (const code of codes) {
    for (const [name, { required, ...header }] of Object.entries(ERROR_HEADERS[code] ?? {})) {
      const everyCodeSendsIt = codes.every((other) => ERROR_HEADERS[other]?.[name]?.required);
      headers[name] = { ...header, ...(required && everyCodeSendsIt ? { required: true } : {}) };
    }
  }
  return headers;
}

function errorResponses(endpoint: Endpoint): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of endpointErrors(endpoint)) {
    const status = errorEntry(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = statusHeaders(codes);
    out[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${errorEntry(code).title}`).join("; "),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: {
        "application/problem+json": {
          schema: { $ref: "#/components/schemas/Problem" },
          examples: Object.fromEntries(codes.map((code) => [code, { summary: errorEntry(code).title, value: problemExample(code) }])),
        },
      },
    };
  }
  return out;
}

function responseContent(response: SuccessResponse): JsonSchema {
  const contentType = response.contentType ?? "application/json";
  return {
    [contentType]: {
      schema: response.schema ? schemaRef(response.schema) : contentType === "text/csv" ? { type: "string" } : { type: "object" },
      ...(response.example !== undefined ? { example: response.example } : {}),
      ...(response.textExample !== undefined ? { example: response.textExample } : {}),
    },
  };
}

function operation(endpoint: Endpoint): JsonSchema {
  const parameters = [
    ...(endpoint.pathParams ?? []).map((p) => parameter("path", p)),
    ...queryParameters(endpoint).map((p) => parameter("query", p)),
    ...(endpoint.headers ?? []).map((p) => parameter("header", p)),
  ];
  const responses: Record<string, JsonSchema> = {};
  for (const response of endpoint.responses) {
    responses[String(response.status)] = {
      description: response.description,
      ...(response.headers ? { headers: response.headers } : {}),
      // A 204 or a 304 has no body, so it has no content.
      ...(response.status === 204 || response.status === 304 ? {} : { content: responseContent(response) }),
    };
  }
  Object.assign(responses, errorResponses(endpoint));
  const body = requestBody(endpoint);
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: endpoint.description,
    ...(endpoint.auth === "none" ? { security: [] } : endpoint.signedSources ? { security: SIGNED_SOURCE_SECURITY } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The JSON body, the CSV body, or both (one content entry each). */
function requestBody(endpoint: Endpoint): JsonSchema | undefined {
  const { body, csvBody } = endpoint;
  if (!body && !csvBody) return undefined;
  const description = [body?.description, csvBody?.description].filter(Boolean).join(" ");
  return {
    required: Boolean(body?.required || csvBody?.required),
    ...(description ? { description } : {}),
    content: {
      ...(body ? { "application/json": { schema: schemaRef(body.schema, body.strict), example: body.example } } : {}),
      ...(csvBody ? { "text/csv": { schema: { type: "string" }, example: csvBody.example } } : {}),
    },
  };
}

export function buildOpenApiDocument(options: { baseUrl: string }): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = operation(endpoint);
  }
  const strictRequests = new Set(ENDPOINTS.filter((e) => e.body?.strict).map((e) => e.body!.schema));
  const named = Object.fromEntries([...SCHEMA_NAMES].map(([schema, name]) => [name, toJsonSchema(schema, { strict: strictRequests.has(schema) })]));
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Sendstream API",
      version: "1.0.0",
      summary: "Trigger WhatsApp template messages and manage campaigns, templates, contacts and messages.",
      description:
        "Authenticate every request with an API key (Settings → API Keys) in `x-api-key: <key>` or `Authorization: Bearer <key>`. Bodies are JSON in camelCase; unknown body fields are refused with 422. Ids are opaque strings, timestamps ISO 8601 in UTC, lists return `{ data, nextCursor }`. Errors are RFC 9457 problem details whose `type` links to the error's entry in the docs.",
    },
    servers: [{ url: options.baseUrl }],
    security: [{ apiKeyHeader: [] }, { bearerAuth: [] }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      securitySchemes: {
        apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "The API key (`ss_…`) in the `x-api-key` header." },
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "ss_ API key", description: "The API key as a bearer token: `Authorization: Bearer ss_…`." },
        ShopifyHmac: {
          type: "apiKey",
          in: "header",
          name: "X-Shopify-Hmac-Sha256",
          description:
            "Trigger endpoint, campaign source `shopify`, no API key: the base64 HMAC-SHA256 of the raw body under the source's secret (the store's webhook signing secret). `X-Shopify-Webhook-Id` is the idempotency key (72 hours); `X-Shopify-Topic` is the topic the source filters on.",
        },
        WooCommerceSignature: {
          type: "apiKey",
          in: "header",
          name: "X-WC-Webhook-Signature",
          description:
            "Trigger endpoint, campaign source `woocommerce`, no API key: the base64 HMAC-SHA256 of the raw body under the webhook's secret. `X-WC-Webhook-Delivery-ID` is the idempotency key; `X-WC-Webhook-Topic` the topic. The unsigned creation ping (`webhook_id=<id>`, form-encoded) is answered 200 and sends nothing.",
        },
        StripeSignature: {
          type: "apiKey",
          in: "header",
          name: "Stripe-Signature",
          description:
            "Trigger endpoint, campaign source `stripe`, no API key: `t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" under the whsec_ secret>` (several v1 while a secret rolls). Refused more than 5 minutes from now. The event's `id` is the idempotency key, its `type` the topic.",
        },
        StandardWebhooks: {
          type: "apiKey",
          in: "header",
          name: "webhook-signature",
          description:
            "Trigger endpoint, campaign source `standard_webhooks`, no API key: `v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">` under the key a `whsec_` secret encodes; `webhook-timestamp` within 5 minutes of now. `webhook-id` is the idempotency key, the body's `type` the topic.",
        },
      },
      schemas: { ...named, ...Object.fromEntries(DEFINITIONS) },
    },
    "x-error-codes": ERROR_CATALOG.map(({ code, status, title }) => ({ code, status, title, type: problemType(code) })),
  };
}
