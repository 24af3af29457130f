import type { Metadata } from "next";
import { connection } from "next/server";
import { WebhookEndpointsManager } from "@/components/event-webhooks/endpoints-manager";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listWebhookEndpoints } from "@/lib/event-webhooks/endpoints";
import { AdminsOnly } from "@/components/settings/admins-only";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await connection();
  const user = await requireUser();
  if (user.role === "member") return <AdminsOnly title="Webhooks" />;
  const endpoints = await listWebhookEndpoints(await getDb(), user.workspaceId);
  return <WebhookEndpointsManager initialEndpoints={endpoints} />;
}
