// Saved replies: canned answers any member inserts into a reply and edits before sending. The body
// may name contact attributes as `{{name}}` or `{{order_number}}`, filled from the conversation's
// contact when inserted (`fillSavedReply`, in the browser too). Any member manages them, as the
// people answering know best what they keep typing.
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { savedReplies } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { conflict, notFound } from "@/lib/http/errors";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";
import { TEXT_MAX } from "./schemas";

const storable = (schema: z.ZodString) => schema.refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } });

export const savedReplyInputSchema = z.object({
  title: storable(z.string().trim().min(1, "Name it, such as Shipping times.").max(80, "At most 80 characters.")),
  body: storable(z.string().trim().min(1, "Write the reply.").max(TEXT_MAX, "At most 4,096 characters (WhatsApp's limit).")),
});
export type SavedReplyInput = z.output<typeof savedReplyInputSchema>;

export interface SavedReplyView {
  id: string;
  title: string;
  body: string;
  updatedAt: string;
}

const toView = (row: typeof savedReplies.$inferSelect): SavedReplyView => ({ id: row.id, title: row.title, body: row.body, updatedAt: row.updatedAt.toISOString() });
const titleTaken = (title: string) => conflict(`A saved reply is already called “${title}”: pick another name.`, "saved_reply_exists");
const savedReplyNotFound = () => notFound("No saved reply with this id exists in your workspace.");

export async function listSavedReplies(db: Executor, workspaceId: string): Promise<SavedReplyView[]> {
  return (await db.select().from(savedReplies).where(eq(savedReplies.workspaceId, workspaceId)).orderBy(asc(savedReplies.title))).map(toView);
}

export async function createSavedReply(db: Executor, workspaceId: string, userId: string | null, input: SavedReplyInput): Promise<SavedReplyView> {
  const [row] = await db.insert(savedReplies).values({ id: newId("svr"), workspaceId, createdBy: userId, ...input }).onConflictDoNothing().returning();
  if (!row) throw titleTaken(input.title);
  return toView(row);
}

export async function updateSavedReply(db: Executor, workspaceId: string, id: string, input: SavedReplyInput): Promise<SavedReplyView> {
  const [clash] = await db.select({ id: savedReplies.id }).from(savedReplies).where(and(eq(savedReplies.workspaceId, workspaceId), eq(savedReplies.title, input.title))).limit(1);
  if (clash && clash.id !== id) throw titleTaken(input.title);
  const [row] = await db
    .update(savedReplies)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(savedReplies.workspaceId, workspaceId), eq(savedReplies.id, id)))
    .returning();
  if (!row) throw savedReplyNotFound();
  return toView(row);
}

export async function deleteSavedReply(db: Executor, workspaceId: string, id: string): Promise<void> {
  const deleted = await db.delete(savedReplies).where(and(eq(savedReplies.workspaceId, workspaceId), eq(savedReplies.id, id))).returning({ id: savedReplies.id });
  if (deleted.length === 0) throw savedReplyNotFound();
}
