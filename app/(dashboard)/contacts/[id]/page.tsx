import type { Metadata } from "next";
import { connection } from "next/server";
import { ContactDetail } from "@/components/contacts/contact-detail";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { findSandboxSender } from "@/lib/senders/service";
import { pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Contact" };

export default async function ContactPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const user = await requireUser();
  const { id } = await pageParams(params);
  const db = await getDb();
  const sandbox = await findSandboxSender(db, user.workspaceId);
  return <ContactDetail contactId={id} sandbox={sandbox !== null} />;
}
