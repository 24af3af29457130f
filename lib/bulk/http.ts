// Request → response for the bulk campaign routes under /api/v1 (the web app and integrators alike).
import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { campaignResource, readOptionalJson } from "@/lib/campaigns/http";
import { sendTestMessages } from "@/lib/campaigns/test-send";
import { lifecycleActionSchema } from "@/lib/campaigns/schemas";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { dispatchSoon } from "@/lib/messaging";
import { runJobsSoon } from "@/lib/jobs/soon";
import { parseStrict, readStrictBody } from "@/lib/http/request";
import { countBulkAudience } from "./audience";
import { getLaunchCheck, launchBulkCampaign, scheduleBulkCampaign } from "./launch";
import { cancelBulkCampaign } from "./lifecycle";
import { previewBulkMessage } from "./preview";
import { SNAPSHOT_JOB } from "./jobs";
import { getBulkProgress } from "./progress";
import { retargetBulkCampaign } from "./retarget";
import { audienceCountRequestSchema, launchRequestSchema, previewRequestSchema, retargetRequestSchema, scheduleRequestSchema, testSendRequestSchema } from "./schemas";

type Params = { id: string };
const only = (allowed: string[]) => {
  const notAllowed = methodNotAllowed(allowed);
  return { GET: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
};

export const audienceCountRoutes = {
  ...only(["POST"]),
  POST: withWorkspace(async ({ request, workspaceId }) => {
    const audience = await readStrictBody(request, audienceCountRequestSchema);
    return json(await countBulkAudience(await getDb(), workspaceId, audience));
  }),
};

export const previewRoutes = {
  ...only(["POST"]),
  POST: withWorkspace(async ({ request, workspaceId }) => {
    const input = await readStrictBody(request, previewRequestSchema);
    return json(await previewBulkMessage(await getDb(), workspaceId, input));
  }),
};

export const testSendRoutes = {
  ...only(["POST"]),
  POST: withWorkspace<Params>(async ({ request, params, workspaceId }) => {
    const input = await readStrictBody(request, testSendRequestSchema);
    const data = await sendTestMessages(await getDb(), workspaceId, params.id, input);
    dispatchSoon();
    return json({ data }, { status: 202 });
  }),
};

export const launchCheckRoutes = {
  ...only(["GET"]),
  GET: withWorkspace<Params>(async ({ params, workspaceId }) => json(await getLaunchCheck(await getDb(), workspaceId, params.id))),
};

export const progressRoutes = {
  ...only(["GET"]),
  GET: withWorkspace<Params>(async ({ params, workspaceId }) => json(await getBulkProgress(await getDb(), workspaceId, params.id))),
};

export const scheduleRoutes = {
  ...only(["POST"]),
  POST: withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
    const input = await readStrictBody(request, scheduleRequestSchema);
    const db = await getDb();
    const campaign = await scheduleBulkCampaign(db, workspaceId, params.id, input, { actor: auditActorFromRequest(request, actor) });
    return json(await campaignResource(db, workspaceId, campaign));
  }),
};

export const launchRoutes = {
  ...only(["POST"]),
  POST: withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
    const options = parseStrict(launchRequestSchema, await readOptionalJson(request));
    const db = await getDb();
    const campaign = await launchBulkCampaign(db, workspaceId, params.id, { ...options, actor: auditActorFromRequest(request, actor) });
    dispatchSoon();
    // The rest of its snapshot's messages are written after the response.
    runJobsSoon([SNAPSHOT_JOB]);
    return json(await campaignResource(db, workspaceId, campaign));
  }),
};

export const cancelRoutes = {
  ...only(["POST"]),
  POST: withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
    const options = parseStrict(lifecycleActionSchema, await readOptionalJson(request));
    const db = await getDb();
    const campaign = await cancelBulkCampaign(db, workspaceId, params.id, { ...options, actor: auditActorFromRequest(request, actor) });
    return json(await campaignResource(db, workspaceId, campaign));
  }),
};

export const retargetRoutes = {
  ...only(["POST"]),
  POST: withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
    const input = await readStrictBody(request, retargetRequestSchema);
    const db = await getDb();
    const campaign = await retargetBulkCampaign(db, workspaceId, params.id, input, { actor: auditActorFromRequest(request, actor) });
    return json(await campaignResource(db, workspaceId, campaign), { status: 201, headers: { Location: `/api/v1/campaigns/${campaign.id}` } });
  }),
};

