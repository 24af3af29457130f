import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { BulkBuilderPage } from "@/app/(dashboard)/campaigns/[id]/bulk-pages";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { getCampaign } from "@/lib/campaigns/service";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Edit campaign" };

/** A scheduled bulk campaign is edited here; every other campaign is edited on its own page. */
export default async function EditCampaignPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const user = await requireUser();
  const { id } = await pageParams(params);
  const db = await getDb();
  const campaign = await orNotFound(getCampaign(db, user.workspaceId, id));
  if (campaign.kind !== "bulk" || (campaign.status !== "draft" && campaign.status !== "scheduled")) redirect(`/campaigns/${campaign.id}`);
  return <BulkBuilderPage db={db} workspaceId={user.workspaceId} campaign={campaign} />;
}
