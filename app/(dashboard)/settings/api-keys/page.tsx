import type { Metadata } from "next";
import { connection } from "next/server";
import { ApiKeysManager } from "@/components/api-keys/api-keys-manager";
import { getDb } from "@/db";
import { listApiKeys, listScopableCampaigns } from "@/lib/api-keys/service";
import { requireUser } from "@/lib/auth";
import { AdminsOnly } from "@/components/settings/admins-only";

export const metadata: Metadata = { title: "API Keys" };

export default async function ApiKeysPage() {
  await connection();
  const user = await requireUser();
  if (user.role === "member") return <AdminsOnly title="API Keys" />;
  const db = await getDb();
  const [keys, campaigns] = await Promise.all([listApiKeys(db, user.workspaceId), listScopableCampaigns(db, user.workspaceId)]);
  // A server component renders once per request: this is the request's time, which the client
  // hydrates against before switching to its own clock.
  // eslint-disable-next-line react-hooks/purity
  const serverNow = Date.now();
  return <ApiKeysManager initialKeys={keys} campaigns={campaigns} currentUser={{ id: user.id, name: user.name }} serverNow={serverNow} />;
}
