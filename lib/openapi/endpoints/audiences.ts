// Endpoints of the audiences area; spread into ENDPOINTS in ../registry.ts.
import { addMembershipSchema } from "@/lib/audiences/list-members";
import { createListSchema, membershipSchema, updateListSchema } from "@/lib/audiences/lists";
import { countSegmentSchema, createSegmentSchema, updateSegmentSchema } from "@/lib/audiences/filter";
import { pageQuerySchema } from "@/lib/contacts/schemas";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter } from "../endpoint";
import { EXAMPLE_IDS, listPageSchema, listSchema, membershipResultSchema, segmentCountSchema, segmentPageSchema, segmentSchema } from "../schemas";

const NEXT_CURSOR = "WyJvIiwiMjAyNi0xMS0yMVQxNDowMzowNy41MTIwMDBaIiwibHN0XzRSdFk4dUlvMnBBczZEZkciXQ";

const listIdParam: Parameter = { name: "id", description: "The list's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.list };
const segmentIdParam: Parameter = { name: "id", description: "The segment's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.segment };

const listExample = { id: EXAMPLE_IDS.list, object: "list", name: "VIP customers", contactCount: 1250, createdAt: EXAMPLE_TIME, updatedAt: EXAMPLE_TIME };

const filterExample = {
  match: "all",
  conditions: [
    { field: "attribute", key: "city", op: "equals", value: "Lisbon" },
    { field: "attribute", key: "points", op: "gte", value: 100 },
    { field: "list", op: "in", listId: EXAMPLE_IDS.list },
    { field: "opted_out", value: false },
  ],
};

const segmentExample = {
  id: EXAMPLE_IDS.segment,
  object: "segment",
  name: "Lisbon VIPs",
  filter: filterExample,
  contactCount: 312,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

const FILTER_DOC =
  "A filter is `{ match: \"all\" | \"any\", conditions: [...] }`. Conditions: `{ field: \"attribute\", key, op, value? }` with `op` one of `equals`, `not_equals`, `contains`, `starts_with` (text: letter case and surrounding white space are ignored unless the condition has `matchCase: true`; segments saved before `matchCase` existed compare this way too), `is_set`, `is_not_set` (no value), `gt`, `gte`, `lt`, `lte` (a number: only numeric stored values match), `before`, `after` (a date `YYYY-MM-DD`); `{ field: \"list\", op: \"in\" | \"not_in\", listId }`; `{ field: \"opted_out\", value: true | false }`; `{ field: \"created_at\", op: \"before\" | \"after\", value }` (a date covers the whole UTC day, or an ISO 8601 date-time); `{ field: \"last_message_status\", op: \"equals\" | \"not_equals\", value }`.";

const membership = (method: "POST" | "DELETE"): Endpoint => ({
  operationId: method === "POST" ? "addListContacts" : "removeListContacts",
  method,
  path: "/api/v1/lists/{id}/contacts",
  tag: "Audiences",
  summary: method === "POST" ? "Add contacts to a list" : "Remove contacts from a list",
  description: `${method === "POST" ? "Adds" : "Removes"} up to 1,000 contacts, by id, by phone number or both. Ids and phone numbers that match no contact of the workspace are reported back and change nothing; ${method === "POST" ? "members already in the list" : "contacts not in the list"} are not counted in \`changed\`.${method === "POST" ? " Or send `{ segmentId }` alone: every contact the saved segment selects now joins the list in one statement (adding it again changes nothing). Another workspace's list or segment is a 404." : ""}`,
  auth: "apiKey",
  pathParams: [listIdParam],
  body: { schema: method === "POST" ? addMembershipSchema : membershipSchema, strict: true, required: true, example: { contactIds: [EXAMPLE_IDS.contact], phones: ["+351912345678"] } },
  responses: [
    {
      status: 200,
      description: "What changed and the list's size after it.",
      schema: membershipResultSchema,
      example: { listId: EXAMPLE_IDS.list, changed: 1, unknownContactIds: [], unknownPhones: ["+351912345678"], contactCount: 1251 },
    },
  ],
  errors: ["not_found", ...JSON_BODY_ERRORS],
});

export const AUDIENCES_ENDPOINTS: Endpoint[] = [
  {
    operationId: "listLists",
    method: "GET",
    path: "/api/v1/lists",
    tag: "Audiences",
    summary: "List lists",
    description: "The workspace's lists, newest first, each with its number of members.",
    auth: "apiKey",
    query: pageQuerySchema,
    responses: [{ status: 200, description: "One page of lists.", schema: listPageSchema, example: { data: [listExample], nextCursor: NEXT_CURSOR } }],
    errors: ["validation_failed"],
  },
  {
    operationId: "createList",
    method: "POST",
    path: "/api/v1/lists",
    tag: "Audiences",
    summary: "Create a list",
    description: "An empty list; names are unique in the workspace (409 otherwise).",
    auth: "apiKey",
    body: { schema: createListSchema, strict: true, required: true, example: { name: "VIP customers" } },
    responses: [
      {
        status: 201,
        description: "Created.",
        schema: listSchema,
        example: { ...listExample, contactCount: 0 },
        headers: { Location: { description: "`/api/v1/lists/{id}` of the new list.", schema: { type: "string" }, required: true } },
      },
    ],
    errors: [...JSON_BODY_ERRORS, "list_name_taken"],
  },
  {
    operationId: "getList",
    method: "GET",
    path: "/api/v1/lists/{id}",
    tag: "Audiences",
    summary: "Get a list",
    description: "The list with its number of members.",
    auth: "apiKey",
    pathParams: [listIdParam],
    responses: [{ status: 200, description: "The list.", schema: listSchema, example: listExample }],
    errors: ["not_found"],
  },
  {
    operationId: "renameList",
    method: "PATCH",
    path: "/api/v1/lists/{id}",
    tag: "Audiences",
    summary: "Rename a list",
    description: "Names are unique in the workspace (409 otherwise).",
    auth: "apiKey",
    pathParams: [listIdParam],
    body: { schema: updateListSchema, strict: true, required: true, example: { name: "Gold customers" } },
    responses: [{ status: 200, description: "The renamed list.", schema: listSchema, example: { ...listExample, name: "Gold customers" } }],
    errors: ["not_found", ...JSON_BODY_ERRORS, "list_name_taken"],
  },
  {
    operationId: "deleteList",
    method: "DELETE",
    path: "/api/v1/lists/{id}",
    tag: "Audiences",
    summary: "Delete a list",
    description: "Deletes the list and its memberships; the contacts stay.",
    auth: "apiKey",
    pathParams: [listIdParam],
    responses: [{ status: 204, description: "Deleted." }],
    errors: ["not_found"],
  },
  membership("POST"),
  membership("DELETE"),
  {
    operationId: "listSegments",
    method: "GET",
    path: "/api/v1/segments",
    tag: "Audiences",
    summary: "List segments",
    description: "The workspace's segments, newest first, each with its filter and live count.",
    auth: "apiKey",
    query: pageQuerySchema,
    responses: [{ status: 200, description: "One page of segments.", schema: segmentPageSchema, example: { data: [segmentExample], nextCursor: null } }],
    errors: ["validation_failed"],
  },
  {
    operationId: "createSegment",
    method: "POST",
    path: "/api/v1/segments",
    tag: "Audiences",
    summary: "Create a segment",
    description: `A saved filter over the workspace's contacts, counted live. ${FILTER_DOC} Names are unique in the workspace (409 otherwise).`,
    auth: "apiKey",
    body: { schema: createSegmentSchema, strict: true, required: true, example: { name: "Lisbon VIPs", filter: filterExample } },
    responses: [
      {
        status: 201,
        description: "Created, with its count.",
        schema: segmentSchema,
        example: segmentExample,
        headers: { Location: { description: "`/api/v1/segments/{id}` of the new segment.", schema: { type: "string" }, required: true } },
      },
    ],
    errors: [...JSON_BODY_ERRORS, "segment_name_taken"],
  },
  {
    operationId: "getSegment",
    method: "GET",
    path: "/api/v1/segments/{id}",
    tag: "Audiences",
    summary: "Get a segment",
    description: "The segment with its filter and live count.",
    auth: "apiKey",
    pathParams: [segmentIdParam],
    responses: [{ status: 200, description: "The segment.", schema: segmentSchema, example: segmentExample }],
    errors: ["not_found"],
  },
  {
    operationId: "updateSegment",
    method: "PATCH",
    path: "/api/v1/segments/{id}",
    tag: "Audiences",
    summary: "Update a segment",
    description: `Changes the name, the filter or both. ${FILTER_DOC}`,
    auth: "apiKey",
    pathParams: [segmentIdParam],
    body: { schema: updateSegmentSchema, strict: true, required: true, example: { filter: { match: "any", conditions: [{ field: "attribute", key: "city", op: "contains", value: "lis" }] } } },
    responses: [
      {
        status: 200,
        description: "The updated segment, with its count.",
        schema: segmentSchema,
        example: { ...segmentExample, filter: { match: "any", conditions: [{ field: "attribute", key: "city", op: "contains", value: "lis" }] }, contactCount: 540 },
      },
    ],
    errors: ["not_found", ...JSON_BODY_ERRORS, "segment_name_taken"],
  },
  {
    operationId: "deleteSegment",
    method: "DELETE",
    path: "/api/v1/segments/{id}",
    tag: "Audiences",
    summary: "Delete a segment",
    description: "Deletes the saved filter; no contact changes.",
    auth: "apiKey",
    pathParams: [segmentIdParam],
    responses: [{ status: 204, description: "Deleted." }],
    errors: ["not_found"],
  },
  {
    operationId: "countSegment",
    method: "GET",
    path: "/api/v1/segments/{id}/count",
    tag: "Audiences",
    summary: "Count a segment",
    description: "How many contacts the saved segment selects right now.",
    auth: "apiKey",
    pathParams: [segmentIdParam],
    responses: [{ status: 200, description: "The count.", schema: segmentCountSchema, example: { contactCount: 312 } }],
    errors: ["not_found"],
  },
  {
    operationId: "countSegmentFilter",
    method: "POST",
    path: "/api/v1/segments/count",
    tag: "Audiences",
    summary: "Count a filter",
    description: `How many contacts a filter selects, without saving it (what the segment builder shows as you edit). ${FILTER_DOC}`,
    auth: "apiKey",
    body: { schema: countSegmentSchema, strict: true, required: true, example: { filter: filterExample } },
    responses: [{ status: 200, description: "The count.", schema: segmentCountSchema, example: { contactCount: 312 } }],
    errors: JSON_BODY_ERRORS,
  },
];
