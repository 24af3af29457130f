import type { Metadata } from "next";
import { connection } from "next/server";
import { ApiKeysManager } from "@/components/api-keys/api-keys-manager";
import { getDb } from "@/db";
import { listApiKeys } from "@/lib/api-keys/service";
import { requireUser } from "@/lib/auth";

export const metadata: Metadata = { title: "API Keys" };

export default async function ApiKeysPage() {
  await connection();
  const user = await requireUser();
  const keys = await listApiKeys(await getDb(), user.workspaceId);
  // A server component renders once per request: this is the request's time, which the client
  // hydrates against before switching to its own clock.
  // eslint-disable-next-line react-hooks/purity
  const serverNow = Date.now();
  return <ApiKeysManager initialKeys={keys} currentUser={{ id: user.id, name: user.name }} serverNow={serverNow} />;
}
