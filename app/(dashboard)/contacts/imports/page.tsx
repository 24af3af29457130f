import { Upload } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ContactsNav } from "@/components/contacts/contacts-nav";
import { ImportsTable } from "@/components/contacts/imports-table";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth";

export const metadata: Metadata = { title: "Imports" };

export default async function ImportsPage() {
  await connection();
  await requireUser();
  return (
    <>
      <PageHeader
        title="Contacts"
        description="CSV imports of this workspace, with their reports."
        actions={
          <Button asChild>
            <Link href="/contacts/import"><Upload aria-hidden />Import contacts</Link>
          </Button>
        }
      />
      <ContactsNav />
      <ImportsTable />
    </>
  );
}
