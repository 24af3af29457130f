import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import { notFound } from "@/lib/http/errors";

export interface LogsCampaign {
  id: string;
  name: string;
  status: "draft" | "active" | "paused" | "archived";
}

/** The campaign whose logs are read, scoped to the workspace: another workspace's id is a 404. */
export async function getLogsCampaign(db: Executor, workspaceId: string, campaignId: string): Promise<LogsCampaign> {
  const [campaign] = await db
    .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status })
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.id, campaignId)))
    .limit(1);
  if (!campaign) throw notFound("No campaign with this id exists in your workspace.");
  return campaign;
}

/** Campaigns to pick from on the workspace-wide logs page, newest first. */
export async function listLogsCampaigns(db: Executor, workspaceId: string): Promise<LogsCampaign[]> {
  return db
    .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status })
    .from(campaigns)
    .where(eq(campaigns.workspaceId, workspaceId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
}
