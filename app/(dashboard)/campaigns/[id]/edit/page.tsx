import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { BulkBuilderPage } from "@/app/(dashboard)/campaigns/[id]/bulk-pages";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { campaignKind } from "@/lib/campaigns/kinds";
import { getCampaign } from "@/lib/campaigns/service";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Edit campaign" };

/** A campaign whose kind has an edit page (a draft or scheduled bulk campaign) is edited here; every other campaign on its own page. */
export default async function EditCampaignPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const user = await requireUser();
  const { id } = await pageParams(params);
  const db = await getDb();
  const campaign = await orNotFound(getCampaign(db, user.workspaceId, id));
  const kind = campaignKind(campaign.kind);
  if (!kind.view.editPage || !kind.edits.statuses.includes(campaign.status)) redirect(`/campaigns/${campaign.id}`);
  return <BulkBuilderPage db={db} workspaceId={user.workspaceId} campaign={campaign} />;
}
