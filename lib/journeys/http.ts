// Request → response for `POST /api/v1/campaigns/{id}/journey/test`: one test run for one phone.
import { getDb } from "@/db";
import { readStrictBody } from "@/lib/http/request";
import { runJobsSoon } from "@/lib/jobs/soon";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { JOURNEY_STEPS_JOB } from "./jobs";
import { journeyTestRequestSchema } from "./schemas";
import { startTestRun } from "./test-run";

const notAllowed = methodNotAllowed(["POST"]);

export const journeyTestRoutes = {
  GET: notAllowed,
  PUT: notAllowed,
  PATCH: notAllowed,
  DELETE: notAllowed,
  POST: withWorkspace<{ id: string }>(async ({ request, params, workspaceId }) => {
    const input = await readStrictBody(request, journeyTestRequestSchema);
    const run = await startTestRun(await getDb(), { workspaceId, campaignId: params.id, phone: input.phone, body: input.request, timeScale: input.timeScale });
    runJobsSoon([JOURNEY_STEPS_JOB]);
    return json(run, { status: 202, headers: { Location: `/api/v1/journey-runs/${run.id}` } });
  }),
};
