// Request-level glue shared by the session routes and the REST API: one function per lifecycle action.
import type { Executor } from "@/db";
import { KIB, readJsonBody } from "@/lib/http/body";
import { lifecycleActionSchema } from "./schemas";
import {
  archiveCampaign,
  deployCampaign,
  getDeploymentDetails,
  pauseCampaign,
  resumeCampaign,
  type CampaignView,
  type DeploymentDetails,
} from "./service";

export const CAMPAIGN_ACTIONS = ["deploy", "pause", "resume", "archive"] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/** A lifecycle request may come without a body; with one, it must be JSON. */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const hasBody = request.headers.has("content-type") || Number(request.headers.get("content-length") ?? 0) > 0;
  if (!hasBody) return {};
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  return value ?? {};
}

export interface CampaignWithDeployment {
  campaign: CampaignView;
  /** Webhook URLs, limits and the curl example; present once the campaign has been deployed. */
  deployment: DeploymentDetails | null;
}

export async function withDeployment(db: Executor, workspaceId: string, campaign: CampaignView, origin?: string): Promise<CampaignWithDeployment> {
  const deployed = campaign.status === "active" || campaign.status === "paused";
  return { campaign, deployment: deployed ? await getDeploymentDetails(db, workspaceId, campaign, origin) : null };
}

export async function runCampaignAction(
  db: Executor,
  workspaceId: string,
  id: string,
  action: CampaignAction,
  body: unknown,
  origin?: string,
): Promise<CampaignWithDeployment> {
  const options = lifecycleActionSchema.parse(body ?? {});
  const run = { deploy: deployCampaign, pause: pauseCampaign, resume: resumeCampaign, archive: archiveCampaign }[action];
  const campaign = await run(db, workspaceId, id, options);
  return withDeployment(db, workspaceId, campaign, origin);
}
