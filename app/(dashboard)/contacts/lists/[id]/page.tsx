import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ListDetail } from "@/components/contacts/list-detail";
import { requireUser } from "@/lib/auth";
import { pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "List" };

export default async function ListPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  await requireUser();
  const { id } = await pageParams(params);
  return (
    <>
      <Link href="/contacts/lists" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden />
        Lists
      </Link>
      <ListDetail listId={id} />
    </>
  );
}
