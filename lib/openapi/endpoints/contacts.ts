// Endpoints of the contacts area; spread into ENDPOINTS in ../registry.ts.
import { defineAttributeSchema } from "@/lib/contacts/attributes";
import { countContactsQuerySchema, createContactSchema, listContactsQuerySchema, patchContactSchema, upsertContactSchema } from "@/lib/contacts/schemas";
import { contactTimelineQuerySchema } from "@/lib/inbound/timeline";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter, type SuccessResponse } from "../endpoint";
import { contactAttributeListSchema, contactAttributeSchema, contactMessagePageSchema, contactPageSchema, contactSchema, EXAMPLE_IDS, segmentCountSchema } from "../schemas";


export const contactExample = {
  id: EXAMPLE_IDS.contact,
  object: "contact",
  phone: "+14155552671",
  name: "Maria",
  attributes: { order_id: "A-10482", vip: true },
  consent: { status: "subscribed", source: "import", updatedAt: "2026-11-20T09:00:00.000Z", optedOut: false, optedOutAt: null, method: null, detail: null },
  lists: [{ id: EXAMPLE_IDS.list, name: "VIP customers" }],
  lastMessageStatus: "delivered",
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

const optedOutExample = {
  ...contactExample,
  consent: { status: "unsubscribed", source: "api", updatedAt: "2026-11-21T15:20:00.000Z", optedOut: true, optedOutAt: "2026-11-21T15:20:00.000Z", method: "api", detail: "Shopify" },
  updatedAt: "2026-11-21T15:20:00.000Z",
};

const idOrPhoneParam: Parameter = {
  name: "idOrPhone",
  description: "The contact's id (`ctc_…`) or its phone number in E.164 (`+` may be sent as `%2B`).",
  schema: { type: "string" },
  required: true,
  example: "+14155552671",
};

const phoneParam: Parameter = {
  name: "idOrPhone",
  description: "The phone number in E.164 (`+` may be sent as `%2B`). This method takes a phone number only.",
  schema: { type: "string" },
  required: true,
  example: "+14155552671",
};

const consent = (action: "opt-out" | "opt-in"): Endpoint => ({
  operationId: action === "opt-out" ? "optOutContact" : "optInContact",
  method: "POST",
  path: `/api/v1/contacts/{idOrPhone}/${action}`,
  tag: "Contacts",
  summary: action === "opt-out" ? "Opt a contact out" : "Opt a contact back in",
  description:
    action === "opt-out"
      ? "Sets consent to `unsubscribed` and records when, how (`api` with a key, `manual` from the web app) and by whom (the key's name or the user's email). Unsubscribed contacts are left out of every bulk audience, and trigger campaigns that respect opt-outs record a `skipped` message instead of sending. Unsubscribing an unsubscribed contact keeps the first record. Audited. No body."
      : "Sets consent to `subscribed` (clearing any opt-out). Audited. No body.",
  auth: "apiKey",
  pathParams: [idOrPhoneParam],
  responses: [{ status: 200, description: "The contact with its consent.", schema: contactSchema, example: action === "opt-out" ? optedOutExample : contactExample }],
  errors: ["not_found", "validation_failed"],
});

/** An upsert answers 200 with the updated contact or 201 with the new one and its `Location`. */
function upsertResponses(locationKey: "id" | "phone"): SuccessResponse[] {
  return [
    { status: 200, description: "Updated.", schema: contactSchema, example: { ...contactExample, updatedAt: "2026-11-21T15:20:00.000Z" } },
    {
      status: 201,
      description: "Created.",
      schema: contactSchema,
      example: { ...contactExample, lists: [], lastMessageStatus: null },
      headers: { Location: { description: `\`/api/v1/contacts/{${locationKey}}\` of the new contact.`, schema: { type: "string" }, required: true } },
    },
  ];
}

export const CONTACTS_ENDPOINTS: Endpoint[] = [
  {
    operationId: "listContacts",
    method: "GET",
    path: "/api/v1/contacts",
    tag: "Contacts",
    summary: "List contacts",
    description:
      "Newest first, with keyset cursors. `search` matches a phone number in any formatting (`+1 (415) 555-2671` finds `+14155552671`) or part of the name; filter by list, segment or consent. Each contact comes with its lists and the status of its newest message.",
    auth: "apiKey",
    query: listContactsQuerySchema,
    responses: [
      {
        status: 200,
        description: "One page of contacts.",
        schema: contactPageSchema,
        example: { data: [contactExample], nextCursor: "WyJvIiwiMjAyNi0xMS0yMVQxNDowMzowNy41MTIwMDBaIiwiY3RjXzlHaEQ0ZlNhN21RdzFaZVYiXQ" },
      },
    ],
    errors: ["not_found", "validation_failed"],
    example: { query: { search: "415 555", limit: "20" } },
  },
  {
    operationId: "createContact",
    method: "POST",
    path: "/api/v1/contacts",
    tag: "Contacts",
    summary: "Create or update a contact",
    description:
      "Creates the contact with this phone number, or updates it when the number is known: a name you leave out keeps the stored one, attributes are merged into the stored ones. Values of defined attributes must match their type (422 otherwise). `consent` sets the consent status (`subscribed`, `unsubscribed`, `unknown`; recorded with source `api`, audited). The deprecated `optedOut` still works: `true` unsubscribes, `false` lifts an unsubscribe (`subscribed`); send one of the two.",
    auth: "apiKey",
    body: {
      schema: createContactSchema,
      strict: true,
      required: true,
      example: { phone: "+14155552671", name: "Maria", attributes: { order_id: "A-10482", vip: true }, consent: "subscribed" },
    },
    responses: upsertResponses("id"),
    errors: [...JSON_BODY_ERRORS, "contact_exists"],
  },
  {
    operationId: "countContacts",
    method: "GET",
    path: "/api/v1/contacts/count",
    tag: "Contacts",
    summary: "Count contacts",
    description: "How many contacts the list of contacts holds with these filters (all of the workspace's contacts without any): the same `search`, `listId`, `segmentId` and `optedOut` as List contacts.",
    auth: "apiKey",
    query: countContactsQuerySchema,
    responses: [{ status: 200, description: "The count.", schema: segmentCountSchema, example: { contactCount: 1234 } }],
    errors: ["not_found", "validation_failed"],
    example: { query: { optedOut: "false" } },
  },
  {
    operationId: "getContact",
    method: "GET",
    path: "/api/v1/contacts/{idOrPhone}",
    tag: "Contacts",
    summary: "Get a contact",
    description: "The contact with its attributes, lists, consent and the status of its newest message.",
    auth: "apiKey",
    pathParams: [idOrPhoneParam],
    responses: [{ status: 200, description: "The contact.", schema: contactSchema, example: contactExample }],
    errors: ["not_found", "validation_failed"],
  },
  {
    operationId: "upsertContact",
    method: "PUT",
    path: "/api/v1/contacts/{idOrPhone}",
    tag: "Contacts",
    summary: "Create or update a contact by phone",
    description:
      "Creates the contact, or updates it when the phone number is known (kept for existing integrations; `POST /api/v1/contacts` does the same with the phone in the body). Attributes are merged into the stored ones (the same rule as a trigger request); a name you leave out (or send as null) keeps the stored name. Attribute names follow the field-name rule (letters, digits, underscores); `name` and `phoneNumber` are built in.",
    auth: "apiKey",
    pathParams: [phoneParam],
    body: { schema: upsertContactSchema, strict: true, required: true, example: { name: "Maria", attributes: { order_id: "A-10482", vip: true } } },
    responses: upsertResponses("phone"),
    errors: JSON_BODY_ERRORS,
  },
  {
    operationId: "updateContact",
    method: "PATCH",
    path: "/api/v1/contacts/{idOrPhone}",
    tag: "Contacts",
    summary: "Update a contact",
    description:
      "Changes the name (`null` clears it) and attributes: the ones you send are merged into the stored ones, and an attribute sent as `null` is removed. Values of defined attributes must match their type (422 with the attribute's path otherwise); nothing is written when any value is refused. `consent` sets the consent status (source `api` with a key, `manual` from the web app; audited).",
    auth: "apiKey",
    pathParams: [idOrPhoneParam],
    body: { schema: patchContactSchema, strict: true, required: true, example: { name: "Maria Silva", attributes: { city: "Lisbon", order_id: null } } },
    responses: [
      {
        status: 200,
        description: "The updated contact.",
        schema: contactSchema,
        example: { ...contactExample, name: "Maria Silva", attributes: { vip: true, city: "Lisbon" }, updatedAt: "2026-11-21T15:20:00.000Z" },
      },
    ],
    errors: ["not_found", ...JSON_BODY_ERRORS],
  },
  {
    operationId: "deleteContact",
    method: "DELETE",
    path: "/api/v1/contacts/{idOrPhone}",
    tag: "Contacts",
    summary: "Delete a contact",
    description: "Deletes the contact and its list memberships. Its messages stay in the logs and exports (with the phone number, no longer linked to a contact).",
    auth: "apiKey",
    pathParams: [idOrPhoneParam],
    responses: [{ status: 204, description: "Deleted." }],
    errors: ["not_found", "validation_failed"],
  },
  consent("opt-out"),
  consent("opt-in"),
  {
    operationId: "listContactMessages",
    method: "GET",
    path: "/api/v1/contacts/{idOrPhone}/messages",
    tag: "Contacts",
    summary: "List a contact's messages",
    description:
      "The contact's timeline: every message sent to the contact across campaigns (`direction: \"outbound\"`) and every message the contact sent to the workspace's numbers (`direction: \"inbound\"`: text, buttons, interactive replies, media, locations, reactions), newest first by when it was stored, each with its campaign's name (an inbound message's is the campaign of the message it answers). `direction` narrows it to one side.",
    auth: "apiKey",
    pathParams: [idOrPhoneParam],
    query: contactTimelineQuerySchema,
    responses: [
      {
        status: 200,
        description: "One page of messages.",
        schema: contactMessagePageSchema,
        example: {
          data: [
            {
              id: EXAMPLE_IDS.inboundMessage,
              object: "message",
              direction: "inbound",
              kind: "button",
              phone: "+14155552671",
              contactId: EXAMPLE_IDS.contact,
              senderId: "snd_4KjH7gFd2sAq9WeR",
              text: "Track my order",
              payload: "TRACK_ORDER",
              media: null,
              location: null,
              reaction: null,
              wamid: "wamid.HBgLMTQxNTU1NTI2NzEVAgASGBQzQUI0RjE2QjA1QjQ5QzY5RkM4OAA",
              replyToMessageId: EXAMPLE_IDS.message,
              campaignId: EXAMPLE_IDS.campaign,
              campaignName: "Order confirmation",
              receivedAt: "2026-11-21T14:05:12.000Z",
              createdAt: "2026-11-21T14:05:12.640Z",
            },
            {
              id: EXAMPLE_IDS.message,
              object: "message",
              direction: "outbound",
              status: "delivered",
              campaignId: EXAMPLE_IDS.campaign,
              campaignName: "Order confirmation",
              phone: "+14155552671",
              template: { name: "order_confirmation", language: "en_US" },
              text: "Order confirmed\nHi Maria, thanks for your order! Your order number is A-10482.\nDemo Shop",
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
            },
          ],
          nextCursor: null,
        },
      },
    ],
    errors: ["not_found", "validation_failed"],
  },
  {
    operationId: "listContactAttributes",
    method: "GET",
    path: "/api/v1/contact-attributes",
    tag: "Contacts",
    summary: "List attribute definitions",
    description: "The workspace's typed attributes, by key. Attributes without a definition are stored as sent.",
    auth: "apiKey",
    responses: [
      {
        status: 200,
        description: "Every definition (one page; `nextCursor` is always null).",
        schema: contactAttributeListSchema,
        example: { data: [{ key: "city", type: "string", createdAt: EXAMPLE_TIME }, { key: "points", type: "number", createdAt: EXAMPLE_TIME }], nextCursor: null },
      },
    ],
    errors: [],
  },
  {
    operationId: "defineContactAttribute",
    method: "POST",
    path: "/api/v1/contact-attributes",
    tag: "Contacts",
    summary: "Define an attribute",
    description:
      "Declares an attribute's type (`string`, `number`, `boolean` or `date` as `YYYY-MM-DD`): from then on, values written through the API, the web app and imports must match it. Defining it again with the same type changes nothing (200); with another type it is refused (409).",
    auth: "apiKey",
    body: { schema: defineAttributeSchema, strict: true, required: true, example: { key: "points", type: "number" } },
    responses: [
      { status: 201, description: "Defined.", schema: contactAttributeSchema, example: { key: "points", type: "number", createdAt: EXAMPLE_TIME } },
      { status: 200, description: "Already defined with this type.", schema: contactAttributeSchema, example: { key: "points", type: "number", createdAt: EXAMPLE_TIME } },
    ],
    errors: [...JSON_BODY_ERRORS, "attribute_type_conflict"],
  },
];
