import type { Metadata } from "next";
import { connection } from "next/server";
import { SavedRepliesManager } from "@/components/saved-replies/saved-replies-manager";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listSavedReplies } from "@/lib/conversations/saved-replies";

export const metadata: Metadata = { title: "Saved replies" };

export default async function SavedRepliesPage() {
  await connection();
  const user = await requireUser();
  return (
    <>
      <PageHeader title="Saved replies" description="Canned answers for the inbox, shared by the whole team." />
      <div className="max-w-3xl">
        <SavedRepliesManager initial={await listSavedReplies(await getDb(), user.workspaceId)} />
      </div>
    </>
  );
}
