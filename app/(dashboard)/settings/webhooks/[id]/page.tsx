import type { Metadata } from "next";
import { connection } from "next/server";
import { WebhookEndpointDetail } from "@/components/event-webhooks/endpoint-detail";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listWebhookDeliveries } from "@/lib/event-webhooks/deliveries";
import { getWebhookEndpoint } from "@/lib/event-webhooks/endpoints";
import { isTestEndpoint } from "@/lib/event-webhooks/schemas";
import { listTestReceipts } from "@/lib/event-webhooks/test-endpoint";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";
import { AdminsOnly } from "@/components/settings/admins-only";

export const metadata: Metadata = { title: "Webhook endpoint" };

export default async function WebhookEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const user = await requireUser();
  if (user.role === "member") return <AdminsOnly title="Webhooks" />;
  const { id } = await pageParams(params);
  const db = await getDb();
  const endpoint = await orNotFound(getWebhookEndpoint(db, user.workspaceId, id));
  const deliveries = await listWebhookDeliveries(db, user.workspaceId, id);
  const receipts = isTestEndpoint(endpoint) ? await listTestReceipts(db, user.workspaceId, id) : [];
  return <WebhookEndpointDetail initialEndpoint={endpoint} initialDeliveries={deliveries} initialReceipts={receipts} />;
}
