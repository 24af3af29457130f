import type { Metadata } from "next";
import { connection } from "next/server";
import { Inbox } from "@/components/inbox/inbox";
import { filtersFromQuery } from "@/components/inbox/types";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { loadInboxContext } from "./load-inbox";

export const metadata: Metadata = { title: "Inbox" };

export default async function InboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const user = await requireUser();
  const context = await loadInboxContext(await getDb(), user);
  return <Inbox context={context} initialFilters={filtersFromQuery(await searchParams)} selected={null} />;
}
