import type { Metadata } from "next";
import { connection } from "next/server";
import { MembersManager } from "@/components/members/members-manager";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listTeam } from "@/lib/members/service";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  await connection();
  const user = await requireUser();
  const team = await listTeam(await getDb(), user.workspaceId);
  return <MembersManager initialTeam={team} currentUserId={user.id} currentRole={user.role} />;
}
