import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { workspaces } from "@/db/schema";

export async function getWorkspace(db: Executor, workspaceId: string) {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  return workspace ?? null;
}
