import type { Metadata } from "next";
import { connection } from "next/server";
import { AcceptInvitation } from "@/components/members/accept-invitation";
import { getDb } from "@/db";
import { getSessionUser } from "@/lib/auth";
import { previewInvitation } from "@/lib/members/service";
import { pageParams } from "@/lib/http/page-not-found";

// The token is in the URL: no Referer may carry it to another site.
export const metadata: Metadata = { title: "Join a workspace", referrer: "no-referrer" };

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await pageParams(params);
  const [invitation, user] = await Promise.all([previewInvitation(await getDb(), token), getSessionUser()]);
  return <AcceptInvitation token={token} invitation={invitation} signedInAs={user?.email ?? null} />;
}
