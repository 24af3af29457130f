import { originOfRequest } from "@/lib/http/origin";
import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { readStrictBody } from "@/lib/http/request";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { putSourceSchema } from "@/lib/sources/schemas";
import { getCampaignSource, putCampaignSource } from "@/lib/sources/service";

type Params = { id: string };

export const GET = withWorkspace<Params>(async ({ request, params, workspaceId }) =>
  json(await getCampaignSource(await getDb(), workspaceId, params.id, originOfRequest(request))),
);

export const PUT = withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
  const source = await readStrictBody(request, putSourceSchema);
  const db = await getDb();
  return json(
    await putCampaignSource(db, { workspaceId, campaignId: params.id, source, actor: auditActorFromRequest(request, actor), origin: originOfRequest(request) }),
  );
});

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
export const DELETE = methodNotAllowed(["GET", "PUT"]);
