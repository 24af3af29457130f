import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SegmentBuilder } from "@/components/contacts/segment-builder";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth";

export const metadata: Metadata = { title: "New segment" };

export default async function NewSegmentPage() {
  await connection();
  await requireUser();
  return (
    <>
      <Link href="/contacts/segments" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden />
        Segments
      </Link>
      <PageHeader title="New segment" description="Combine conditions; the count updates as you go." />
      <SegmentBuilder />
    </>
  );
}
