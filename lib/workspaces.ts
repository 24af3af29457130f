import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { workspaces } from "@/db/schema";

/** Who acts in a workspace: a signed-in user of the web app, or an API key of an integration. */
export type Actor =
  | { type: "user"; id: string; email: string; name: string }
  | { type: "api_key"; id: string; name: string };

export async function getWorkspace(db: Executor, workspaceId: string) {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  return workspace ?? null;
}
