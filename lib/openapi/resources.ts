// REST API resource shapes built from the shared services.
import type { Executor } from "@/db";
import { runCampaignAction, withDeployment, type CampaignAction } from "@/lib/campaigns/actions";
import { lifecycleActionSchema } from "@/lib/campaigns/schemas";
import type { CampaignView, DeploymentDetails } from "@/lib/campaigns/service";
import { json, methodNotAllowed, withApiKey } from "@/lib/http/route";
import { getDb } from "@/db";
import { readOptionalJson } from "@/lib/campaigns/actions";
import { parseStrict } from "./request";

/** A campaign as `/api/v1` returns it: the campaign itself, with its deployment details once deployed. */
export interface CampaignResource extends CampaignView {
  deployment: DeploymentDetails | null;
}

export async function campaignResource(db: Executor, workspaceId: string, campaign: CampaignView, origin?: string): Promise<CampaignResource> {
  const { deployment } = await withDeployment(db, workspaceId, campaign, origin);
  return { ...campaign, deployment };
}

/** Deploy / pause / resume / archive through the shared action runner, answered as the campaign resource. */
export async function campaignActionResource(
  db: Executor,
  workspaceId: string,
  id: string,
  action: CampaignAction,
  body: unknown,
  origin?: string,
): Promise<CampaignResource> {
  const { campaign, deployment } = await runCampaignAction(db, workspaceId, id, action, parseStrict(lifecycleActionSchema, body), origin);
  return { ...campaign, deployment };
}

/** The handlers of `POST /api/v1/campaigns/{id}/<action>` (every other method answers 405). */
export function campaignActionRoutes(action: CampaignAction) {
  const notAllowed = methodNotAllowed(["POST"]);
  return {
    POST: withApiKey<{ id: string }>(async ({ request, params, workspaceId }) => {
      const body = await readOptionalJson(request);
      return apiJson(await campaignActionResource(await getDb(), workspaceId, params.id, action, body, new URL(request.url).origin));
    }),
    GET: notAllowed,
    PUT: notAllowed,
    PATCH: notAllowed,
    DELETE: notAllowed,
  };
}

/** JSON for API clients: never cached by intermediaries (bodies are workspace data). */
export function apiJson(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", "no-store");
  return json(body, { ...init, headers });
}
