import { getDb } from "@/db";
import { withDeployment } from "@/lib/campaigns/actions";
import { getCampaign, updateCampaign } from "@/lib/campaigns/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { json, methodNotAllowed, withSession } from "@/lib/http/route";

type Params = { id: string };

export const GET = withSession<Params>(async ({ request, params, workspaceId }) => {
  const db = await getDb();
  const campaign = await getCampaign(db, workspaceId, params.id);
  return json(await withDeployment(db, workspaceId, campaign, new URL(request.url).origin));
});

export const PATCH = withSession<Params>(async ({ request, params, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 64 * KIB });
  const db = await getDb();
  const campaign = await updateCampaign(db, workspaceId, params.id, (value ?? {}) as Parameters<typeof updateCampaign>[3]);
  return json(await withDeployment(db, workspaceId, campaign, new URL(request.url).origin));
});

export const POST = methodNotAllowed(["GET", "PATCH"]);
export const PUT = methodNotAllowed(["GET", "PATCH"]);
export const DELETE = methodNotAllowed(["GET", "PATCH"]);
