import { Upload } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ContactsBrowser } from "@/components/contacts/contacts-browser";
import type { ContactsQuery } from "@/components/contacts/contacts-filters";
import { ContactsNav } from "@/components/contacts/contacts-nav";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth";

export const metadata: Metadata = { title: "Contacts" };

type SearchParams = Record<string, string | string[] | undefined>;

function param(raw: SearchParams, key: string): string | undefined {
  const value = raw[key];
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() ? text.trim() : undefined;
}

export default async function ContactsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const user = await requireUser();
  const raw = await searchParams;
  const query = Object.fromEntries(["search", "listId", "segmentId", "optedOut", "cursor"].map((key) => [key, param(raw, key)])) as ContactsQuery;
  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people your workspace messages: their phone numbers, attributes, lists and consent."
        actions={
          <Button asChild variant="outline">
            <Link href="/contacts/import"><Upload aria-hidden />Import contacts</Link>
          </Button>
        }
      />
      <ContactsNav />
      <ContactsBrowser key={JSON.stringify(query)} query={query} columnScope={`${user.workspaceId}.${user.id}`} />
    </>
  );
}
