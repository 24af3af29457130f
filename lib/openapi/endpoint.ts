// What an API endpoint's entry says, and the values every endpoint file shares. The endpoint
// files under ./endpoints build their entries from these; ./registry.ts puts them in one list.
import type { z } from "zod";
import type { ErrorCode } from "@/lib/http/error-catalog";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export const TAGS = [
  { name: "Account", description: "Check which workspace and key a request authenticates as." },
  { name: "Campaigns", description: "Create, configure, deploy, pause, resume and archive campaigns." },
  { name: "Trigger", description: "Send one templated message per recipient through an active trigger campaign." },
  { name: "Messages", description: "Read a message's status, a campaign's messages and its logs as CSV." },
  { name: "Templates", description: "WhatsApp templates available to the workspace's sender." },
  { name: "Senders", description: "The workspace's WhatsApp numbers and the sandbox, one of them the default. Any key reads them; only owners and admins, signed in, change them." },
  { name: "Contacts", description: "Recipients, their typed attributes and their consent, keyed by phone number or id." },
  { name: "Audiences", description: "Lists (static membership) and segments (saved filters, counted live) that bulk campaigns target." },
  { name: "Imports", description: "CSV imports of contacts: a job with progress, a report and the rejected rows." },
  { name: "Conversations", description: "The team inbox: a conversation per contact and number, its timeline, replies inside WhatsApp's 24-hour window (templates outside it), notes, assignment, closing." },
  { name: "Journeys", description: "Runs of journey campaigns (steps after the trigger) with their history, ending a run, events that start and end runs, and a journey's numbers." },
  { name: "Reference", description: "This API's machine-readable description." },
] as const;
export type Tag = (typeof TAGS)[number]["name"];

export interface Parameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  required?: boolean;
  example?: string | number | boolean;
}

export interface SuccessResponse {
  /** A 204 or a 304 is documented without content: it has no body. */
  status: number;
  description: string;
  /** JSON responses: the schema and an example (both checked by the tests). */
  schema?: z.ZodType;
  example?: unknown;
  /** Non-JSON responses (CSV). */
  contentType?: string;
  textExample?: string;
  /** `required`: sent with every response of this status (the wire test holds it to that). */
  headers?: Record<string, { description: string; schema: Record<string, unknown>; required?: boolean }>;
}

export interface Endpoint {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/v1/campaigns/{id}`. */
  path: string;
  tag: Tag;
  summary: string;
  description: string;
  /** `apiKey` (x-api-key or Bearer) unless the endpoint is public. */
  auth: "apiKey" | "none";
  /** Also takes deliveries signed by the campaign's source (Shopify, WooCommerce, Stripe, Standard Webhooks) without a key. */
  signedSources?: boolean;
  pathParams?: Parameter[];
  /** Query parameters, from a zod object (each member documented) or listed by hand. */
  query?: z.ZodObject | Parameter[];
  headers?: Parameter[];
  body?: {
    schema: z.ZodType;
    /** Unknown members are refused with 422 (every REST body except the trigger's). */
    strict: boolean;
    required: boolean;
    description?: string;
    example: unknown;
  };
  /** A raw CSV body (`Content-Type: text/csv`), beside or instead of the JSON body. */
  csvBody?: {
    required: boolean;
    description: string;
    example: string;
  };
  responses: SuccessResponse[];
  errors: ErrorCode[];
  /** Values used in the generated curl example. */
  example?: { path?: Record<string, string>; query?: Record<string, string> };
}

/** What every endpoint that reads a JSON body can answer besides its own errors. */
export const JSON_BODY_ERRORS: ErrorCode[] = ["malformed_json", "payload_too_large", "unsupported_media_type", "validation_failed"];

/** The one timestamp the examples use. */
export const EXAMPLE_TIME = "2026-11-21T14:03:07.512Z";
