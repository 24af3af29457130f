import type { Metadata } from "next";
import { connection } from "next/server";
import { AutoRepliesManager } from "@/components/auto-replies/auto-replies-manager";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listAutoReplies } from "@/lib/inbound/auto-replies";
import { listSenderRows } from "@/lib/senders/service";
import { listTemplates } from "@/lib/templates/service";

export const metadata: Metadata = { title: "Auto-replies" };

export default async function AutoRepliesPage() {
  await connection();
  const user = await requireUser();
  const db = await getDb();
  const [rules, senderRows] = await Promise.all([listAutoReplies(db, user.workspaceId), listSenderRows(db, user.workspaceId)]);
  const senders = await Promise.all(
    senderRows.map(async (sender) => ({
      id: sender.id,
      name: sender.name,
      templates: (await listTemplates(db, user.workspaceId, { senderId: sender.id }))
        .filter((template) => template.status.toUpperCase() === "APPROVED")
        .map((template) => ({ id: template.id, name: template.name, language: template.language, variables: template.variables.map((variable) => variable.key) })),
    })),
  );
  return (
    <>
      <PageHeader title="Auto-replies" description="Answer common questions at once, on each of your numbers." />
      <div className="max-w-3xl">
        <AutoRepliesManager initial={rules} senders={senders} canManage={user.role !== "member"} />
      </div>
    </>
  );
}
