import type { Metadata } from "next";
import { connection } from "next/server";
import { OptOutKeywordsForm } from "@/components/settings/opt-out-keywords-form";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { getOptOutKeywords } from "@/lib/contacts/opt-out-keywords";

export const metadata: Metadata = { title: "Contacts settings" };

export default async function ContactsSettingsPage() {
  await connection();
  const user = await requireUser();
  const keywords = await getOptOutKeywords(await getDb(), user.workspaceId);
  return (
    <>
      <PageHeader title="Contacts settings" description="How contacts opt out of your messages by replying." />
      <div className="max-w-3xl">
        <OptOutKeywordsForm initial={keywords} />
      </div>
    </>
  );
}
