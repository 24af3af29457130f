import { FileText, Plus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SenderSwitch } from "@/components/templates/sender-switch";
import { TemplateStatusBadge } from "@/components/templates/template-status";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { orNotFound } from "@/lib/http/page-not-found";
import { listSenderRows } from "@/lib/senders/service";
import { listTemplates } from "@/lib/templates/service";

export const metadata: Metadata = { title: "Templates" };

const CATEGORY: Record<string, string> = { MARKETING: "Marketing", UTILITY: "Utility", AUTHENTICATION: "Authentication" };

/** A sender's templates (the default one's unless `?sender=` names another) with their review status and WhatsApp's reason. */
export default async function TemplatesPage({ searchParams }: { searchParams: Promise<{ sender?: string | string[] }> }) {
  await connection();
  const user = await requireUser();
  const db = await getDb();
  const requested = (await searchParams).sender;
  const senderId = typeof requested === "string" && requested ? requested : undefined;
  const senders = await listSenderRows(db, user.workspaceId);
  // Another workspace's sender, or none at all: the not-found page, as for any other id.
  const selected = senderId ? senders.find((sender) => sender.id === senderId) : (senders.find((sender) => sender.isDefault) ?? senders[0]);
  const templates = await orNotFound(listTemplates(db, user.workspaceId, { senderId: selected?.id ?? senderId }));
  const newButton = (
    <Button asChild>
      <Link href="/templates/new">
        <Plus aria-hidden /> New template
      </Link>
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Templates"
        description="Every business-initiated WhatsApp message uses a template WhatsApp approved. Write one here and submit it for review; its status updates when WhatsApp decides."
        actions={newButton}
      />
      <SenderSwitch senders={senders.map(({ id, name, isDefault }) => ({ id, name, isDefault }))} selectedId={selected?.id ?? ""} />
      {templates.length === 0 ? (
        <EmptyState icon={<FileText aria-hidden />} title="No templates yet" description="Write your first template, or sync the ones of your WhatsApp account in Settings → WhatsApp." action={newButton} />
      ) : (
        <div className="overflow-x-auto rounded-xl border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead className="hidden sm:table-cell">Category</TableHead>
                <TableHead className="hidden sm:table-cell">Language</TableHead>
                <TableHead>Status</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {templates.map((template) => (
                <TableRow key={template.id}>
                  <TableCell className="max-w-[55vw] font-medium break-all whitespace-normal sm:max-w-none">{template.name}</TableCell>
                  <TableCell className="hidden sm:table-cell">{CATEGORY[template.category] ?? template.category}</TableCell>
                  <TableCell className="hidden sm:table-cell">{template.language}</TableCell>
                  <TableCell className="whitespace-normal">
                    <div className="grid gap-1">
                      <TemplateStatusBadge status={template.status} />
                      {template.statusReason && <p className="max-w-md text-xs text-muted-foreground">{template.statusReason}</p>}
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </>
  );
}
