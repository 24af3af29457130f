import type { Metadata } from "next";
import { connection } from "next/server";
import { RequestsView } from "@/components/campaigns/requests/requests-view";
import { AdminsOnly } from "@/components/settings/admins-only";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { isOwnerOrAdmin } from "@/lib/members/roles";
import { getCampaign } from "@/lib/campaigns/service";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";
import { listTriggerRequests, requestListParamsSchema } from "@/lib/trigger/requests-query";
import { searchParamsRecord } from "@/lib/http/request";

export const metadata: Metadata = { title: "Campaign requests" };

export default async function CampaignRequestsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  const user = await requireUser();
  // The bodies hold customers' phone numbers and addresses: owners and admins only.
  if (!isOwnerOrAdmin(user.role)) return <AdminsOnly title="Requests" />;
  const [{ id }, raw] = await Promise.all([pageParams(params), searchParams]);
  const db = await getDb();
  const campaign = await orNotFound(getCampaign(db, user.workspaceId, id));
  // A hand-edited address falls back to the newest page of all requests rather than an error page.
  const parsed = requestListParamsSchema.safeParse(searchParamsRecord(raw));
  const listParams = parsed.success ? parsed.data : requestListParamsSchema.parse({});
  const page = await listTriggerRequests(db, { workspaceId: user.workspaceId, campaignId: campaign.id }, listParams);
  const topic = typeof raw.topic === "string" ? raw.topic.trim() : "";
  return <RequestsView campaign={campaign} page={page} outcome={listParams.outcome} topic={topic} paged={listParams.cursor !== undefined} />;
}
