import type { Metadata } from "next";
import { connection } from "next/server";
import { ContactsNav } from "@/components/contacts/contacts-nav";
import { SegmentsTable } from "@/components/contacts/segments-table";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth";

export const metadata: Metadata = { title: "Segments" };

export default async function SegmentsPage() {
  await connection();
  await requireUser();
  return (
    <>
      <PageHeader title="Contacts" description="Segments: saved filters, counted live, that bulk campaigns can target." />
      <ContactsNav />
      <SegmentsTable />
    </>
  );
}
