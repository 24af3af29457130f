// The journey test endpoint (a test run of a trigger campaign's journey for one phone); spread into
// ENDPOINTS in ../registry.ts.
import { z } from "zod";
import { journeyTestRequestSchema } from "@/lib/journeys/schemas";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint } from "../endpoint";
import { EXAMPLE_IDS, opaqueId, phone, timestamp } from "../schemas";

export const journeyTestRunSchema = z.object({
  id: opaqueId("run", "run_2VfH6tKw9mQz4PxL"),
  object: z.literal("journey_run"),
  status: z.literal("active"),
  campaignId: opaqueId("cmp", EXAMPLE_IDS.campaign),
  phone,
  version: z.number().int().meta({ description: "The journey version the test run follows (the document tested, stored when new)." }),
  timeScale: z.number().int().meta({ description: "Waits and timeouts are divided by this." }),
  createdAt: timestamp(),
});

export const JOURNEY_TEST_ENDPOINTS: Endpoint[] = [
  {
    operationId: "testCampaignJourney",
    method: "POST",
    path: "/api/v1/campaigns/{id}/journey/test",
    tag: "Campaigns",
    summary: "Test a journey",
    description:
      "Starts one run of the campaign's journey as it is now (its pending changes when it has some, else the live journey) for one phone, with waits and timeouts divided by `timeScale`. The re-entry rule does not apply; its messages are real test sends (`source: \"test\"`), never counted. `request` is an example trigger request body: its mapped fields are what branches and templates read. Works before deploying.",
    auth: "apiKey",
    pathParams: [{ name: "id", description: "The trigger campaign's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.campaign }],
    body: {
      schema: journeyTestRequestSchema,
      strict: true,
      required: true,
      example: { phone: "+14155552671", request: { first_name: "Maria", order: "A-10482" }, timeScale: 60 },
    },
    responses: [
      {
        status: 202,
        description: "The test run, entered at the journey's first step, which runs right after the response.",
        schema: journeyTestRunSchema,
        example: { id: "run_2VfH6tKw9mQz4PxL", object: "journey_run", status: "active", campaignId: EXAMPLE_IDS.campaign, phone: "+14155552671", version: 3, timeScale: 60, createdAt: EXAMPLE_TIME },
        headers: { Location: { description: "`/api/v1/journey-runs/{id}` of the run.", schema: { type: "string" } } },
      },
    ],
    errors: ["not_found", ...JSON_BODY_ERRORS, "not_a_trigger_campaign", "invalid_status_transition"],
  },
];
