import type { Metadata } from "next";
import { connection } from "next/server";
import { Inbox } from "@/components/inbox/inbox";
import { filtersFromQuery } from "@/components/inbox/types";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { getConversation } from "@/lib/conversations/service";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";
import { loadInboxContext, viewerOf } from "../load-inbox";

export const metadata: Metadata = { title: "Conversation" };

export default async function ConversationPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  const user = await requireUser();
  const { id } = await pageParams(params);
  const db = await getDb();
  const [context, conversation] = await Promise.all([loadInboxContext(db, user), orNotFound(getConversation(db, viewerOf(user), id))]);
  return <Inbox context={context} initialFilters={filtersFromQuery(await searchParams)} selected={conversation} />;
}
