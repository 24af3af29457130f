import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ImportProgress } from "@/components/contacts/import-progress";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth";
import { pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ rows?: string | string[] }> }) {
  await connection();
  await requireUser();
  const { id } = await pageParams(params);
  const rows = Number((await searchParams).rows);
  return (
    <>
      <Link href="/contacts/imports" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden />
        Imports
      </Link>
      <PageHeader title="Import" description="The job runs on the server: you can leave or reload this page and come back." />
      <ImportProgress importId={id} totalRows={Number.isSafeInteger(rows) && rows > 0 ? rows : null} />
    </>
  );
}
