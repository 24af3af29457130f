import { Megaphone } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { NewCampaignDialog } from "@/components/campaigns/new-campaign-dialog";
import { CampaignStatusBadge } from "@/components/campaigns/status-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listCampaigns } from "@/lib/campaigns/service";

export const metadata: Metadata = { title: "Campaigns" };

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const count = (n: number) => n.toLocaleString("en-US");

export default async function CampaignsPage() {
  await connection();
  const user = await requireUser();
  const { data: campaigns } = await listCampaigns(await getDb(), user.workspaceId, { limit: 100 });
  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Trigger campaigns send one WhatsApp template message each time your systems call their webhook."
        actions={campaigns.length > 0 ? <NewCampaignDialog /> : undefined}
      />
      {campaigns.length === 0 ? (
        <EmptyState
          icon={<Megaphone aria-hidden />}
          title="No campaigns yet"
          description="A campaign maps the fields your shop or CRM sends to an approved WhatsApp template. Build your first one — you can try it in the sandbox before connecting WhatsApp."
          action={<NewCampaignDialog />}
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
                <TableHead className="text-right">Failed</TableHead>
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
                  <TableCell className={campaign.stats.failed > 0 ? "text-right text-destructive tabular-nums" : "text-right tabular-nums"}>
                    {count(campaign.stats.failed)}
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
