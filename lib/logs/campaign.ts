import { desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import type { CampaignStatus } from "@/lib/campaigns/schemas";

export interface LogsCampaignOption {
  id: string;
  name: string;
  status: CampaignStatus;
}

/** Every campaign of the workspace (archived ones too: their logs stay readable), newest first. */
export async function listLogsCampaignOptions(db: Executor, workspaceId: string): Promise<LogsCampaignOption[]> {
  return db
    .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status })
    .from(campaigns)
    .where(eq(campaigns.workspaceId, workspaceId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
}
