import { ScrollText } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AuditLogTable } from "@/components/audit/audit-log-table";
import { AdminsOnly } from "@/components/settings/admins-only";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { decodeCursor } from "@/db/cursor";
import { listAuditEvents } from "@/lib/audit/service";
import { requireUser } from "@/lib/auth";
import { isOwnerOrAdmin } from "@/lib/members/roles";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<{ cursor?: string | string[] }> }) {
  await connection();
  const user = await requireUser();
  // Entries name people, their addresses and what they changed: owners and admins only.
  if (!isOwnerOrAdmin(user.role)) return <AdminsOnly title="Audit log" />;
  const raw = (await searchParams).cursor;
  const requested = typeof raw === "string" ? raw : null;
  // A stale or hand-edited cursor shows the newest page rather than an error.
  const cursor = requested && decodeCursor(requested, { id: /^evt_/ })?.direction === "older" ? requested : null;
  const page = await listAuditEvents(await getDb(), user.workspaceId, { cursor });
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Changes to WhatsApp credentials, API keys, campaigns and members: who made them, when and from which address."
      />
      {page.data.length === 0 ? (
        <EmptyState
          icon={<ScrollText aria-hidden />}
          title={cursor ? "No older entries" : "Nothing recorded yet"}
          description="Entries appear here when someone changes the WhatsApp settings, creates or deletes an API key, or deploys, pauses, resumes or archives a campaign."
        />
      ) : (
        <div className="rounded-xl border bg-card">
          <AuditLogTable events={page.data} />
        </div>
      )}
      <nav aria-label="Audit log pages" className="mt-4 flex justify-end gap-2">
        {cursor && (
          <Link href="/settings/audit-log" className={buttonVariants({ variant: "outline", size: "sm" })}>
            Newest
          </Link>
        )}
        {page.nextCursor && (
          <Link href={`/settings/audit-log?cursor=${encodeURIComponent(page.nextCursor)}`} className={buttonVariants({ variant: "outline", size: "sm" })}>
            Older
          </Link>
        )}
      </nav>
    </>
  );
}
