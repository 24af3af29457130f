// The journey runs API (`/api/v1/journey-runs…`, `/api/v1/contacts/{id}/journey-runs`) and a
// journey's numbers (`/api/v1/campaigns/{id}/journey/stats`) and a test run (`…/journey/test`): the web app and integrators call the
// same routes, with a session or an API key.
import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { json, onlyMethods, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";
import { runJobsSoon } from "@/lib/jobs/soon";
import { journeyStats } from "./analytics";
import { JOURNEY_STEPS_JOB } from "./jobs";
import { endJourneyRun, getJourneyRun, listContactJourneyRuns, listJourneyRuns } from "./runs";
import { contactJourneyRunsQuerySchema, journeyTestRequestSchema, listJourneyRunsQuerySchema } from "./schemas";
import { startTestRun } from "./test-run";

type Params = { id: string };

export const journeyRunListRoutes = {
  ...onlyMethods(["GET"]),
  GET: withWorkspace(async ({ request, workspaceId }) => {
    const query = parseQuery(listJourneyRunsQuerySchema, new URL(request.url));
    return json(await listJourneyRuns(await getDb(), workspaceId, query));
  }),
};

export const journeyRunRoutes = {
  ...onlyMethods(["GET"]),
  GET: withWorkspace<Params>(async ({ params, workspaceId }) => json(await getJourneyRun(await getDb(), workspaceId, params.id))),
};

export const journeyRunEndRoutes = {
  ...onlyMethods(["POST"]),
  POST: withWorkspace<Params>(async ({ request, params, workspaceId, actor }) =>
    json(await endJourneyRun(await getDb(), workspaceId, params.id, auditActorFromRequest(request, actor))),
  ),
};

export const contactJourneyRunRoutes = {
  ...onlyMethods(["GET"]),
  GET: withWorkspace<{ idOrPhone: string }>(async ({ request, params, workspaceId }) => {
    const query = parseQuery(contactJourneyRunsQuerySchema, new URL(request.url));
    return json(await listContactJourneyRuns(await getDb(), workspaceId, params.idOrPhone, query));
  }),
};

export const journeyStatsRoutes = {
  ...onlyMethods(["GET"]),
  GET: withWorkspace<Params>(async ({ params, workspaceId }) => json(await journeyStats(await getDb(), workspaceId, params.id))),
};

/** One test run of the campaign's current journey for one phone, its waits compressed. */
export const journeyTestRoutes = {
  ...onlyMethods(["POST"]),
  POST: withWorkspace<Params>(async ({ request, params, workspaceId }) => {
    const input = await readStrictBody(request, journeyTestRequestSchema);
    const run = await startTestRun(await getDb(), { workspaceId, campaignId: params.id, phone: input.phone, body: input.request, timeScale: input.timeScale });
    runJobsSoon([JOURNEY_STEPS_JOB]);
    return json(run, { status: 202, headers: { Location: `/api/v1/journey-runs/${run.id}` } });
  }),
};
