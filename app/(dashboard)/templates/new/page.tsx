import type { Metadata } from "next";
import { connection } from "next/server";
import { TemplateEditor } from "@/components/templates/template-editor";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { getWorkspace } from "@/lib/workspaces";

export const metadata: Metadata = { title: "New template" };

export default async function NewTemplatePage() {
  await connection();
  const user = await requireUser();
  const workspace = await getWorkspace(await getDb(), user.workspaceId);
  return (
    <>
      <PageHeader title="New template" description="WhatsApp reviews every template before it can send. Its limits are checked as you type." />
      <TemplateEditor businessName={workspace?.name ?? "Your business"} />
    </>
  );
}
