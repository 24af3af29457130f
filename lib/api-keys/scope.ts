// What a trigger-only key may do: trigger the campaigns it names (and say who it is), nothing else.
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import type { ApiKeyScope } from "./schemas";

export const FULL_SCOPE: ApiKeyScope = { type: "full" };

export function insufficientScope(detail = "This API key is trigger-only: it can trigger its campaigns and nothing else. Use a full-access key."): ApiError {
  return new ApiError("insufficient_scope", detail, { headers: { "Cache-Control": "no-store" } });
}

/**
 * A trigger of `campaignId` with a key of `scope`. A campaign outside the key's list is 403 when it
 * is in the key's workspace and 404 otherwise, exactly as for any other key: another workspace's
 * campaigns stay indistinguishable from missing ones. The lookup happens only on that refusal.
 */
export async function assertMayTrigger(db: Executor, workspaceId: string, scope: ApiKeyScope, campaignId: string): Promise<void> {
  if (scope.type === "full" || scope.campaignIds.includes(campaignId)) return;
  const [own] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.workspaceId, workspaceId)))
    .limit(1);
  if (!own) throw notFound("No campaign with this id exists in the API key's workspace.");
  throw insufficientScope("This API key may only trigger the campaigns it was created for.");
}
