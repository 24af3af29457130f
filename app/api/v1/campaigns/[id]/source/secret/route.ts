import { originOfRequest } from "@/lib/http/origin";
import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { readOptionalJson } from "@/lib/campaigns/http";
import { parseStrict } from "@/lib/http/request";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { setSecretSchema } from "@/lib/sources/schemas";
import { setSourceSecret } from "@/lib/sources/service";

/** Sets (pasted) or generates the source's signing secret; the answer is the only time it is shown. */
export const POST = withWorkspace<{ id: string }>(async ({ request, params, workspaceId, actor }) => {
  const input = parseStrict(setSecretSchema, await readOptionalJson(request));
  const result = await setSourceSecret(await getDb(), {
    workspaceId,
    campaignId: params.id,
    request: input,
    actor: auditActorFromRequest(request, actor),
    origin: originOfRequest(request),
  });
  return json(result, { status: 201 });
});

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
