import type { Metadata } from "next";
import { connection } from "next/server";
import { WebhookEndpointsManager } from "@/components/event-webhooks/endpoints-manager";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listWebhookEndpoints } from "@/lib/event-webhooks/endpoints";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await connection();
  const user = await requireUser();
  const endpoints = await listWebhookEndpoints(await getDb(), user.workspaceId);
  return <WebhookEndpointsManager initialEndpoints={endpoints} />;
}
