// The conversations API's response shapes (lib/conversations), beside the shared wire shapes of
// ./schemas: the conversation, its events and its timeline.
import { z } from "zod";
import { consentStatuses, conversationEventKinds, conversationStatuses } from "@/db/schema";
import { EXAMPLE_IDS, inboundMessageSchema, messageSchema, nextCursorSchema, opaqueId, phone, timestamp } from "./schemas";

const personRefSchema = z.object({ id: opaqueId("usr", "usr_8cLq2ZRt5WnY"), name: z.string().nullable().meta({ example: "Olivia" }) });

export const conversationSchema = z.object({
  id: opaqueId("cnv", EXAMPLE_IDS.conversation),
  object: z.literal("conversation"),
  status: z.enum(conversationStatuses).meta({ description: "`open` until a member closes it; the contact's next message reopens it." }),
  contact: z.object({
    id: opaqueId("ctc", EXAMPLE_IDS.contact),
    phone,
    name: z.string().nullable(),
    optedOut: z.boolean().meta({ description: "The contact opted out of marketing messages: marketing templates are refused, free-form replies inside the window still go." }),
    consentStatus: z.enum(consentStatuses),
  }),
  sender: z
    .object({ id: opaqueId("snd", EXAMPLE_IDS.sender), name: z.string().nullable(), phone: z.string().nullable().meta({ description: "The number as WhatsApp displays it." }) })
    .meta({ description: "The workspace's number the conversation is on (one conversation per contact and number)." }),
  assignee: personRefSchema.nullable().meta({ description: "The member it is assigned to; null when unassigned." }),
  campaign: z
    .object({ id: opaqueId("cmp", EXAMPLE_IDS.campaign), name: z.string().nullable() })
    .nullable()
    .meta({ description: "The campaign whose message the contact's first reply answered; null when the contact wrote first." }),
  unread: z.number().int().meta({ description: "Messages from the contact no member has opened yet (`POST …/read` clears it); one count shared by the team." }),
  lastMessage: z
    .object({ direction: z.enum(["inbound", "outbound"]), preview: z.string().meta({ description: "One line of the newest message." }) })
    .nullable(),
  lastActivityAt: timestamp("The newest message of either direction, or note: the list's order."),
  lastInboundAt: timestamp("When the contact last wrote (WhatsApp's timestamp); null when they never did.").nullable(),
  window: z
    .object({
      open: z.boolean().meta({ description: "Free-form replies (text, image, document) can be sent now." }),
      endsAt: timestamp("24 hours after the contact's last message; null when they never wrote.").nullable(),
    })
    .meta({ description: "WhatsApp's customer-service window. Once it is closed only a template can be sent (`409 window_closed` otherwise)." }),
  closedAt: timestamp().nullable(),
  createdAt: timestamp(),
});

export const conversationPageSchema = z.object({
  data: z.array(conversationSchema),
  nextCursor: nextCursorSchema,
  unreadConversations: z.number().int().meta({ description: "Open conversations with unread messages the caller may see, whatever the filters (the inbox's badge)." }),
});

export const conversationEventSchema = z
  .object({
    id: opaqueId("cev", "cev_7NbV2cXz5lKj0HgA"),
    object: z.literal("conversation_event"),
    direction: z.literal("internal").meta({ description: "Not a message: something a member (or the system) did, seen only in the workspace." }),
    kind: z.enum(conversationEventKinds).meta({ description: "`note` (an internal note), `assigned`, `unassigned`, `closed` or `reopened` (by a member, or by the contact's new message: `actor` null)." }),
    actor: personRefSchema.nullable().meta({ description: "The member who did it; null for an API key or the system." }),
    assignee: personRefSchema.nullable().meta({ description: "`assigned`: the member it was assigned to." }),
    body: z.string().nullable().meta({ description: "A note's text." }),
    createdAt: timestamp(),
  })
  .meta({ description: "A note, an assignment or a status change on a conversation's timeline." });

export const timelineItemSchema = z.discriminatedUnion("direction", [
  messageSchema.extend({
    campaignName: z.string().nullable().meta({ description: "The campaign of a campaign message; null for a reply.", example: "Order confirmation" }),
    author: personRefSchema.nullable().meta({ description: "The member who wrote a reply; null for campaign messages and replies sent with an API key." }),
    automatic: z.boolean().meta({ description: "True for a keyword auto-reply (Settings → Auto-replies)." }),
  }),
  inboundMessageSchema.extend({ campaignName: z.string().nullable().meta({ description: "The campaign of the message it answers.", example: "Order confirmation" }) }),
  conversationEventSchema,
]);

export const conversationTimelinePageSchema = z.object({
  data: z.array(timelineItemSchema).meta({
    description: "Newest first: messages sent to the contact on the conversation's number (`outbound`; test sends left out), the contact's messages (`inbound`) and what members did (`internal`).",
  }),
  nextCursor: nextCursorSchema,
});

export const conversationWithTimelineSchema = conversationSchema.extend({
  timeline: conversationTimelinePageSchema.meta({ description: "The newest page of the timeline (50 items); read on with `GET …/{id}/timeline?cursor=`." }),
});
