import { Archive, Megaphone } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { connection } from "next/server";
import { CampaignRowMenu } from "@/components/campaigns/campaign-row-menu";
import { FirstRunChecklist } from "@/components/campaigns/first-run-checklist";
import { NewCampaignDialog } from "@/components/campaigns/new-campaign-dialog";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { CampaignStatusBadge } from "@/components/campaigns/status-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { checklistCookieName, firstRunChecklist } from "@/lib/campaigns/first-run";
import { listCampaigns } from "@/lib/campaigns/service";
import { cn } from "@/lib/utils";
import { senderBanner } from "@/lib/senders/banner";

export const metadata: Metadata = { title: "Campaigns" };

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const count = (n: number) => n.toLocaleString("en-US");

/** `?status=archived` lists the archived campaigns (each can be unarchived from its row menu); otherwise every other one. */
export default async function CampaignsPage({ searchParams }: { searchParams: Promise<{ status?: string | string[]; new?: string | string[] }> }) {
  await connection();
  const user = await requireUser();
  const params = await searchParams;
  const archivedView = params.status === "archived";
  const openNew = params.new === "1";
  const db = await getDb();
  const checklistHidden = archivedView || (await cookies()).has(checklistCookieName(user.workspaceId));
  const [{ data: campaigns }, { data: anyArchived }, banner, checklist] = await Promise.all([
    listCampaigns(db, user.workspaceId, archivedView ? { status: "archived", limit: 100 } : { limit: 100 }),
    archivedView ? Promise.resolve({ data: [true] }) : listCampaigns(db, user.workspaceId, { status: "archived", limit: 1 }),
    senderBanner(db, user.workspaceId),
    checklistHidden ? Promise.resolve(null) : firstRunChecklist(db, user.workspaceId),
  ]);
  const hasArchived = anyArchived.length > 0;
  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Trigger campaigns send one WhatsApp template message each time your systems call their webhook; bulk campaigns send one to everyone in an audience."
        actions={campaigns.length > 0 || hasArchived ? <NewCampaignDialog key={String(openNew)} defaultOpen={openNew} /> : undefined}
      />
      <SenderBanner banner={banner} className="mb-5" />
      {checklist && !checklist.complete && <FirstRunChecklist checklist={checklist} cookieName={checklistCookieName(user.workspaceId)} />}
      {hasArchived && (
        <nav aria-label="Campaign status" className="mb-4 flex gap-1 border-b">
          <FilterLink href="/campaigns" current={!archivedView}>
            All campaigns
          </FilterLink>
          <FilterLink href="/campaigns?status=archived" current={archivedView}>
            <Archive aria-hidden className="size-3.5" /> Archived
          </FilterLink>
        </nav>
      )}
      {campaigns.length === 0 && archivedView ? (
        <EmptyState
          icon={<Archive aria-hidden />}
          title="No archived campaigns"
          description="Archived campaigns stop sending and are kept here with their logs; unarchive one to edit and deploy it again."
        />
      ) : campaigns.length === 0 ? (
        <EmptyState
          icon={<Megaphone aria-hidden />}
          title="No campaigns yet"
          description="A bulk campaign sends one WhatsApp template message to everyone in a list or segment; a trigger campaign sends one each time your shop or CRM calls its webhook. Build your first one — you can try it in the sandbox before connecting WhatsApp."
          action={<NewCampaignDialog key={String(openNew)} defaultOpen={openNew} />}
        />
      ) : (
        <div className="overflow-hidden rounded-xl border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Template</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="text-right">Sent</TableHead>
                <TableHead className="text-right">Delivered</TableHead>
                <TableHead className="text-right">Replied</TableHead>
                <TableHead className="text-right">Failed</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {campaigns.map((campaign) => (
                <TableRow key={campaign.id}>
                  <TableCell className="font-medium">
                    <Link href={`/campaigns/${campaign.id}`} className="hover:text-primary hover:underline">
                      {campaign.name}
                    </Link>
                  </TableCell>
                  <TableCell className="text-muted-foreground capitalize">{campaign.kind}</TableCell>
                  <TableCell>
                    <CampaignStatusBadge status={campaign.status} />
                  </TableCell>
                  <TableCell className="font-mono text-xs text-muted-foreground">{campaign.template?.name ?? "—"}</TableCell>
                  <TableCell className="text-muted-foreground">
                    <time dateTime={campaign.createdAt}>{dateFormat.format(new Date(campaign.createdAt))}</time>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{count(campaign.stats.sent)}</TableCell>
                  <TableCell className="text-right tabular-nums">{count(campaign.stats.delivered)}</TableCell>
                  <TableCell className="text-right tabular-nums">{count(campaign.stats.replied)}</TableCell>
                  <TableCell className={campaign.stats.failed > 0 ? "text-right text-destructive tabular-nums" : "text-right tabular-nums"}>
                    {count(campaign.stats.failed)}
                  </TableCell>
                  <TableCell className="w-12 py-1 text-right">
                    <CampaignRowMenu campaign={{ id: campaign.id, name: campaign.name, status: campaign.status }} />
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

function FilterLink({ href, current, children }: { href: string; current: boolean; children: React.ReactNode }) {
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className={cn(
        "-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium",
        current ? "border-primary text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
      )}
    >
      {children}
    </Link>
  );
}
