// The sandbox's "simulate a reply": an inbound text message from one contact, as the sandbox
// channel reports it, received by the same code as a real webhook delivery's.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { contacts } from "@/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";
import { simulatedInboundText } from "@/lib/channels";
import { receiveInboundMessages } from "@/lib/messaging/webhook";
import { getSenderRow } from "@/lib/senders/service";

export const simulateReplySchema = z.object({
  contactId: z.string().min(1).max(100),
  text: z
    .string()
    .trim()
    .min(1, "Write the reply, such as STOP or START.")
    .max(4096, "At most 4,096 characters (WhatsApp's limit for a text message).")
    .refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } }),
});
export type SimulateReplyInput = z.output<typeof simulateReplySchema>;

export interface SimulatedReply {
  contactId: string;
  /** What the reply did: `opted_out` / `opted_in` for a consent keyword, `none` for any other text. */
  action: "opted_out" | "opted_in" | "none";
  /** False when the contact already was in that state. */
  changed: boolean;
  optedOut: boolean;
}

/** 409 unless the workspace sends through the sandbox; another workspace's contact is 404. */
export async function simulateInboundReply(db: Executor, workspaceId: string, input: SimulateReplyInput): Promise<SimulatedReply> {
  const sender = await getSenderRow(db, workspaceId);
  if (sender.provider !== "sandbox") {
    throw new ApiError("sandbox_only", "The workspace sends through WhatsApp: real replies arrive on the webhook, so there is nothing to simulate.");
  }
  const [contact] = await db
    .select({ id: contacts.id, phone: contacts.phoneNumber })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, input.contactId)))
    .limit(1);
  if (!contact) throw notFound("No contact with this id exists in your workspace.");

  const [outcome] = await receiveInboundMessages(db, [{ workspaceId, senderId: sender.id }], [simulatedInboundText(contact.phone, input.text)]);
  const [after] = await db.select({ optedOutAt: contacts.optedOutAt }).from(contacts).where(eq(contacts.id, contact.id)).limit(1);
  return {
    contactId: contact.id,
    action: outcome && outcome.action !== "none" ? outcome.action : "none",
    changed: outcome && outcome.action !== "none" ? outcome.changed : false,
    optedOut: Boolean(after?.optedOutAt),
  };
}
