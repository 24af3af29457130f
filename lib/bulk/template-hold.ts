// A bulk campaign whose template WhatsApp pauses or disables stops sending instead of failing every
// remaining message: it is paused (audited as the system's doing, with the template's reason) and
// cannot be resumed until the template is approved again.
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { transition } from "@/lib/campaigns/lifecycle";
import type { CampaignRow } from "@/lib/campaigns/service";
import { conflict } from "@/lib/http/errors";
import { templateBanner } from "@/lib/templates/review";

/** Pauses the workspace's sending bulk campaigns of these templates when one is now paused or disabled. Returns the campaigns paused. */
export async function holdCampaignsOfBlockedTemplates(db: Executor, workspaceId: string, templateIds: string[]): Promise<string[]> {
  const held: string[] = [];
  for (const templateId of new Set(templateIds)) {
    const banner = await templateBanner(db, workspaceId, templateId);
    if (!banner) continue;
    const sending = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.kind, "bulk"), eq(campaigns.status, "sending"), inArray(campaigns.templateId, [templateId])));
    for (const { id } of sending) {
      await transition(db, workspaceId, id, "paused", ["sending"], { actor: SYSTEM_ACTOR }, async () => ({ reason: "template_blocked", templateStatus: banner.status, detail: banner.message }));
      held.push(id);
    }
  }
  return held;
}

/** Refuses to resume a campaign while its template is paused or disabled (409 `template_blocked`). */
export async function assertTemplateNotBlocked(db: Executor, workspaceId: string, row: Pick<CampaignRow, "templateId">): Promise<void> {
  const banner = await templateBanner(db, workspaceId, row.templateId);
  if (banner) throw conflict(`${banner.message} The campaign resumes once WhatsApp approves the template again.`, "template_blocked");
}
