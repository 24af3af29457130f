import type { Metadata } from "next";
import { connection } from "next/server";
import { ContactsNav } from "@/components/contacts/contacts-nav";
import { ImportWizard } from "@/components/contacts/import/import-wizard";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth";

export const metadata: Metadata = { title: "Import contacts" };

export default async function ImportContactsPage() {
  await connection();
  await requireUser();
  return (
    <>
      <PageHeader title="Import contacts" description="Add or update contacts from a CSV file. Importing the same file again changes nothing." />
      <ContactsNav />
      <ImportWizard />
    </>
  );
}
