// Request → response for the campaign routes under /api/v1 (the web app and integrators alike).
import { originOfRequest } from "@/lib/http/origin";
import { getDb, type Executor } from "@/db";
import { auditActorFromRequest, type AuditActor } from "@/lib/audit/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseStrict } from "@/lib/http/request";
import { lifecycleActionSchema } from "./schemas";
import { getDeploymentDetails, type DeploymentDetails } from "./deployment";
import { campaignKind, type CampaignAction } from "./kinds";
import { runLifecycleAction } from "./lifecycle";
import type { CampaignView } from "./service";

export { CAMPAIGN_ACTIONS, type CampaignAction } from "./kinds";

/** A campaign as the API returns it: the campaign itself, with its deployment details once deployed. */
export interface CampaignResource extends CampaignView {
  /** Webhook URLs, limits and the curl example; present once the campaign has been deployed. */
  deployment: DeploymentDetails | null;
}

export async function campaignResource(db: Executor, workspaceId: string, campaign: CampaignView, origin?: string): Promise<CampaignResource> {
  const deployed = campaignKind(campaign.kind).view.deployed(campaign);
  return { ...campaign, deployment: deployed ? await getDeploymentDetails(db, workspaceId, campaign, origin) : null };
}

/** A lifecycle request may come without a body; with one, it must be JSON. */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const hasBody = request.headers.has("content-type") || Number(request.headers.get("content-length") ?? 0) > 0;
  if (!hasBody) return {};
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  return value ?? {};
}

export async function runCampaignAction(
  db: Executor,
  workspaceId: string,
  id: string,
  action: CampaignAction,
  body: unknown,
  origin?: string,
  actor?: AuditActor,
): Promise<CampaignResource> {
  const options = parseStrict(lifecycleActionSchema, body ?? {});
  const campaign = await runLifecycleAction(db, workspaceId, id, action, { ...options, actor });
  return campaignResource(db, workspaceId, campaign, origin);
}

/** The handlers of `POST /api/v1/campaigns/{id}/<action>` (every other method answers 405). */
export function campaignActionRoutes(action: CampaignAction) {
  const notAllowed = methodNotAllowed(["POST"]);
  return {
    POST: withWorkspace<{ id: string }>(async ({ request, params, workspaceId, actor }) => {
      const body = await readOptionalJson(request);
      const origin = originOfRequest(request);
      return json(await runCampaignAction(await getDb(), workspaceId, params.id, action, body, origin, auditActorFromRequest(request, actor)));
    }),
    GET: notAllowed,
    PUT: notAllowed,
    PATCH: notAllowed,
    DELETE: notAllowed,
  };
}
