// Endpoints of journeys (lib/journeys): runs, events and a journey's numbers; spread into ENDPOINTS
// in ../registry.ts.
import { contactJourneyRunsQuerySchema, journeyEventSchema, listJourneyRunsQuerySchema } from "@/lib/journeys/schemas";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter } from "../endpoint";
import { journeyEventResponseSchema, journeyRunPageSchema, journeyRunWithHistorySchema, journeyStatsSchema } from "../journey-schemas";
import { EXAMPLE_IDS } from "../schemas";

const RUN_ID = "run_4LkJ8hGf2dSa6PoI";
const runIdParam: Parameter = { name: "id", description: "The run's id (`run_…`).", schema: { type: "string" }, required: true, example: RUN_ID };

const runExample = {
  id: RUN_ID,
  object: "journey_run",
  status: "waiting",
  campaignId: EXAMPLE_IDS.campaign,
  version: 2,
  contactId: EXAMPLE_IDS.contact,
  phone: "+14155552671",
  stepId: "pause",
  dueAt: "2026-11-21T15:03:07.512Z",
  entry: "trigger",
  exitReason: null,
  error: null,
  convertedAt: null,
  createdAt: EXAMPLE_TIME,
  endedAt: null,
};
const historyExample = [
  { stepId: "remind", stepName: "Reminder", stepType: "send", outcome: "sent", messageId: EXAMPLE_IDS.message, detail: null, at: EXAMPLE_TIME },
];
const endedExample = {
  ...runExample,
  status: "ended",
  dueAt: null,
  exitReason: "Ended through the API.",
  endedAt: "2026-11-21T14:20:00.000Z",
  history: [...historyExample, { stepId: "pause", stepName: "An hour", stepType: "wait", outcome: "ended", messageId: null, detail: "Ended through the API.", at: "2026-11-21T14:20:00.000Z" }],
};

const ISOLATION = "Another workspace's run is 404.";

export const JOURNEYS_ENDPOINTS: Endpoint[] = [
  {
    operationId: "listJourneyRuns",
    method: "GET",
    path: "/api/v1/journey-runs",
    tag: "Journeys",
    summary: "List journey runs",
    description: "The workspace's journey runs (one per contact, journey version and entry), newest first, with keyset cursors; filter by campaign, contact, phone number or status.",
    auth: "apiKey",
    query: listJourneyRunsQuerySchema,
    responses: [{ status: 200, description: "One page of runs.", schema: journeyRunPageSchema, example: { data: [runExample], nextCursor: null } }],
    errors: ["validation_failed"],
    example: { query: { campaignId: EXAMPLE_IDS.campaign, status: "waiting" } },
  },
  {
    operationId: "getJourneyRun",
    method: "GET",
    path: "/api/v1/journey-runs/{id}",
    tag: "Journeys",
    summary: "Get a journey run",
    description: `The run with its history: each step it took, in order, with the step's name and type from the run's journey version, its outcome and the message it sent. ${ISOLATION}`,
    auth: "apiKey",
    pathParams: [runIdParam],
    responses: [{ status: 200, description: "The run and its history.", schema: journeyRunWithHistorySchema, example: { ...runExample, history: historyExample } }],
    errors: [],
  },
  {
    operationId: "endJourneyRun",
    method: "POST",
    path: "/api/v1/journey-runs/{id}/end",
    tag: "Journeys",
    summary: "End a journey run",
    description: `Ends a going run (\`active\` or \`waiting\`) at once: it becomes \`ended\`, its history says where, and messages it queued that have not left yet are skipped. A run over already is \`409 run_not_active\`. Audited. No body. ${ISOLATION}`,
    auth: "apiKey",
    pathParams: [runIdParam],
    responses: [{ status: 200, description: "The ended run and its history.", schema: journeyRunWithHistorySchema, example: endedExample }],
    errors: ["run_not_active"],
  },
  {
    operationId: "listContactJourneyRuns",
    method: "GET",
    path: "/api/v1/contacts/{idOrPhone}/journey-runs",
    tag: "Journeys",
    summary: "List a contact's journey runs",
    description: "The contact's runs (by id or E.164 phone number), newest first; filter by campaign or status. Another workspace's contact is 404.",
    auth: "apiKey",
    pathParams: [{ name: "idOrPhone", description: "The contact's id (`ctc_…`) or E.164 phone number (URL-encode the `+`).", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.contact }],
    query: contactJourneyRunsQuerySchema,
    responses: [{ status: 200, description: "One page of the contact's runs.", schema: journeyRunPageSchema, example: { data: [runExample], nextCursor: null } }],
    errors: ["validation_failed"],
  },
  {
    operationId: "getJourneyStats",
    method: "GET",
    path: "/api/v1/campaigns/{id}/journey/stats",
    tag: "Journeys",
    summary: "A journey's numbers",
    description:
      "Exact counts from the campaign's runs (test runs left out): per step, runs that entered it, are at it now, went on from it, exited or failed there, and messages it sent; totals by status with the conversion goal's rate and median time to convert. A campaign without a journey answers zeros.",
    auth: "apiKey",
    pathParams: [{ name: "id", description: "The campaign's id (`cmp_…`).", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.campaign }],
    responses: [
      {
        status: 200,
        description: "The journey's numbers.",
        schema: journeyStatsSchema,
        example: {
          version: 2,
          steps: [
            { stepId: "remind", entered: 8, waiting: 0, completed: 8, exited: 0, failed: 0, sent: 8 },
            { stepId: "pause", entered: 8, waiting: 3, completed: 4, exited: 1, failed: 0, sent: 0 },
            { stepId: "again", entered: 4, waiting: 0, completed: 4, exited: 0, failed: 0, sent: 4 },
          ],
          totals: { entered: 8, active: 0, waiting: 3, completed: 4, exited: 1, ended: 0, failed: 0, converted: 1, conversionRate: 0.125, medianSecondsToConvert: 5400 },
        },
      },
    ],
    errors: [],
  },
  {
    operationId: "createEvent",
    method: "POST",
    path: "/api/v1/events",
    tag: "Journeys",
    summary: "Send an event",
    description:
      "Something that happened to a contact (by `phone` or `contactId`, exactly one), with its properties (an object, at most 8 KB as JSON). It starts the journeys that enter on its name and ends the runs that exit on it (\"order_placed\" ends \"cart abandoned\" for that contact), at once. An event for a contact the workspace does not have is accepted and recorded (`contactId: null`); no run starts.",
    auth: "apiKey",
    body: { schema: journeyEventSchema, strict: true, required: true, example: { name: "order_placed", phone: "+14155552671", properties: { orderId: "1042", total: 59.9 } } },
    responses: [
      {
        status: 202,
        description: "The event, recorded, with the runs it started and ended.",
        schema: journeyEventResponseSchema,
        example: { id: "evn_6YhN2bGv8cFx4DsA", object: "event", name: "order_placed", contactId: EXAMPLE_IDS.contact, runsStarted: 0, runsEnded: 1, createdAt: EXAMPLE_TIME },
      },
    ],
    errors: JSON_BODY_ERRORS,
  },
];
