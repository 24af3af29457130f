// One message for `GET /api/v1/messages/{id}` (the trigger's `Location`).
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { messages } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";

const MESSAGE_ID_PATTERN = /^msg_[0-9A-Za-z]{1,64}$/;


/** One message of the workspace; another workspace's message is 404, like a missing one. */
export async function getPublicMessage(db: Executor, workspaceId: string, messageId: string): Promise<PublicMessage> {
  const missing = () => notFound("No message with this id exists in the API key's workspace.");
  if (!MESSAGE_ID_PATTERN.test(messageId)) throw missing();
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.workspaceId, workspaceId)))
    .limit(1);
  if (!row) throw missing();
  return toPublicMessage(row);
}
