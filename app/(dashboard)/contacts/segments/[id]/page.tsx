import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SegmentEditor } from "@/components/contacts/segment-editor";
import { requireUser } from "@/lib/auth";
import { pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Segment" };

export default async function SegmentPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  await requireUser();
  const { id } = await pageParams(params);
  return (
    <>
      <Link href="/contacts/segments" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden />
        Segments
      </Link>
      <SegmentEditor segmentId={id} />
    </>
  );
}
