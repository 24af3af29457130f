// The one list of API endpoints. The OpenAPI document (`/api/v1/openapi.json`) and the docs page
// (`/docs/api`) are both rendered from it; the contract test holds it to the route files.
import { COMMON_API_ERRORS, type ErrorCode } from "@/lib/http/error-catalog";
import type { Endpoint } from "./endpoint";
import { AUDIENCES_ENDPOINTS } from "./endpoints/audiences";
import { BULK_ENDPOINTS } from "./endpoints/bulk";
import { CAMPAIGNS_ENDPOINTS } from "./endpoints/campaigns";
import { CONTACTS_ENDPOINTS } from "./endpoints/contacts";
import { CONVERSATIONS_ENDPOINTS } from "./endpoints/conversations";
import { IMPORTS_ENDPOINTS } from "./endpoints/imports";
import { JOURNEY_TEST_ENDPOINTS } from "./endpoints/journey-test";
import { REQUESTS_ENDPOINTS } from "./endpoints/requests";
import { SENDERS_ENDPOINTS } from "./endpoints/senders";
import { SOURCES_ENDPOINTS } from "./endpoints/sources";
import { EXAMPLE_IDS, meSchema } from "./schemas";

export { TAGS, type Endpoint, type HttpMethod, type Parameter, type SuccessResponse, type Tag } from "./endpoint";

export const ENDPOINTS: Endpoint[] = [
  {
    operationId: "getMe",
    method: "GET",
    path: "/api/v1/me",
    tag: "Account",
    summary: "Who am I",
    description: "The workspace and the API key (or the signed-in user) the request authenticated as. The quickest way to check that a key works.",
    auth: "apiKey",
    responses: [
      {
        status: 200,
        description: "The key's workspace and the key (never the key itself).",
        schema: meSchema,
        example: { workspace: { id: EXAMPLE_IDS.workspace, name: "Demo Shop" }, key: { id: EXAMPLE_IDS.apiKey, name: "Shopify" }, user: null },
      },
    ],
    errors: [],
  },
  ...CAMPAIGNS_ENDPOINTS,
  ...SOURCES_ENDPOINTS,
  ...BULK_ENDPOINTS,
  ...JOURNEY_TEST_ENDPOINTS,
  {
    operationId: "getOpenApiDocument",
    method: "GET",
    path: "/api/v1/openapi.json",
    tag: "Reference",
    summary: "This OpenAPI document",
    description: "The OpenAPI 3.1 description of this API. Public: no key needed.",
    auth: "none",
    responses: [{ status: 200, description: "The document.", contentType: "application/json" }],
    errors: [],
  },
  ...CONTACTS_ENDPOINTS,
  ...AUDIENCES_ENDPOINTS,
  ...IMPORTS_ENDPOINTS,
  ...CONVERSATIONS_ENDPOINTS,
  ...REQUESTS_ENDPOINTS,
  ...SENDERS_ENDPOINTS,
];

/** Errors an endpoint can answer with, the shared ones included, in status order. */
export function endpointErrors(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(endpoint.auth === "apiKey" ? [...endpoint.errors, ...COMMON_API_ERRORS] : [...endpoint.errors, "method_not_allowed", "internal_error"]);
  // A path segment no id can have is 404 on every route that takes one (lib/http/path-params.ts).
  if (endpoint.pathParams?.length) codes.add("not_found");
  // Trigger-only keys may ask who they are.
  if (endpoint.operationId === "getMe") codes.delete("insufficient_scope");
  return [...codes];
}

export function endpointAnchor(endpoint: Endpoint): string {
  return `op-${endpoint.operationId}`;
}
