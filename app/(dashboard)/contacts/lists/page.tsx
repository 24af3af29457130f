import type { Metadata } from "next";
import { connection } from "next/server";
import { ContactsNav } from "@/components/contacts/contacts-nav";
import { ListsManager } from "@/components/contacts/lists-manager";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth";

export const metadata: Metadata = { title: "Lists" };

export default async function ListsPage() {
  await connection();
  await requireUser();
  return (
    <>
      <PageHeader title="Contacts" description="Lists: static audiences that bulk campaigns can target." />
      <ContactsNav />
      <ListsManager />
    </>
  );
}
