// Conversations' request shapes, shared by the inbox's forms (browser) and the route handlers: no
// server imports here. WhatsApp's limits are the Cloud API's: a text body of 4,096 characters, a
// media caption of 1,024.
import { z } from "zod";
import { conversationStatuses } from "@/db/schema";
import { pageQueryShape } from "@/lib/contacts/schemas";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";

export const TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;
export const NOTE_MAX = 4096;
export { SERVICE_WINDOW_MS } from "@/lib/inbound/window";

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const storable = (schema: z.ZodString) => schema.refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } });
const words = (empty: string, max: number) => storable(z.string().trim().min(1, empty).max(max, `At most ${max.toLocaleString("en-US")} characters (WhatsApp's limit).`));
const optionalWords = (max: number) => storable(z.string().trim().max(max, `At most ${max.toLocaleString("en-US")} characters (WhatsApp's limit).`)).optional();

/** Who the list shows: conversations assigned to the caller, to nobody, or everyone's the caller may see. */
export const CONVERSATION_ASSIGNMENT_FILTERS = ["all", "mine", "unassigned"] as const;

export const listConversationsQuerySchema = z.object({
  ...pageQueryShape,
  assigned: z
    .preprocess(emptyToUndefined, z.enum(CONVERSATION_ASSIGNMENT_FILTERS).default("all"))
    .meta({ description: "`mine` (assigned to the signed-in member), `unassigned`, or `all` (default). An API key has no `mine`." }),
  status: z.preprocess(emptyToUndefined, z.enum([...conversationStatuses, "all"]).default("open")).meta({ description: "`open` (default), `closed` or `all`." }),
  senderId: z.preprocess(emptyToUndefined, z.string().max(100).optional()).meta({ description: "Only conversations on this number." }),
  campaignId: z.preprocess(emptyToUndefined, z.string().max(100).optional()).meta({ description: "Only conversations started by a reply to this campaign." }),
  unread: z
    .preprocess((value) => (value === "" || value === undefined ? undefined : value === "true" || value === true), z.boolean().optional())
    .meta({ description: "`true`: only conversations with messages no member has opened yet." }),
  search: z
    .preprocess(emptyToUndefined, storable(z.string().trim().max(100, "Searches are at most 100 characters.")).optional())
    .meta({ description: "Part of the contact's phone number or name." }),
});
export type ListConversationsQuery = z.output<typeof listConversationsQuerySchema>;

const mediaUrl = z
  .string()
  .trim()
  .max(2048, "At most 2,048 characters.")
  .url("A full URL, such as https://cdn.example.com/photo.jpg.")
  .refine((value) => value.toLowerCase().startsWith("https://"), { message: "WhatsApp fetches media over HTTPS only: use an https:// URL.", params: { code: "not_https" } });

/** A reply: free-form (`text`, `image`, `document`) inside the 24-hour window, a `template` at any time. */
export const replySchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: words("Write the reply.", TEXT_MAX).meta({ description: "The message, at most 4,096 characters; a link in it gets a preview." }) }),
  z.object({
    type: z.literal("image"),
    url: mediaUrl.meta({ description: "A public https URL WhatsApp fetches the image from (JPEG or PNG, at most 5 MB); it must answer when the reply is sent." }),
    caption: optionalWords(CAPTION_MAX).meta({ description: "At most 1,024 characters." }),
  }),
  z.object({
    type: z.literal("document"),
    url: mediaUrl.meta({ description: "A public https URL WhatsApp fetches the document from; it must answer when the reply is sent." }),
    caption: optionalWords(CAPTION_MAX).meta({ description: "At most 1,024 characters." }),
    filename: optionalWords(240).meta({ description: "The name the contact sees (default: the URL's last segment)." }),
  }),
  z.object({
    type: z.literal("template"),
    templateId: z.string().min(1).max(100).meta({ description: "An approved template of the conversation's number (`GET /api/v1/templates?senderId=`)." }),
    variables: z
      .record(z.string().max(200), storable(z.string().max(1024, "At most 1,024 characters.")))
      .default({})
      .meta({ description: "A value for each of the template's variables, by key (`body.1`, `header.name`…)." }),
  }),
]);
export type ReplyInput = z.output<typeof replySchema>;
export type ReplyType = ReplyInput["type"];

export const noteSchema = z.object({ body: words("Write the note.", NOTE_MAX) });

export const assignSchema = z.object({
  assigneeId: z.string().min(1).max(100).nullable().meta({ description: "A member's user id, or null to unassign." }),
});

/** `open` or `closed`. */
export const conversationStatusSchema = z.object({ status: z.enum(conversationStatuses) });

/** Open (or find) the conversation of a contact on a number, to write first. */
export const openConversationSchema = z.object({
  contact: z.string().trim().min(1).max(100).meta({ description: "The contact's id (`ctc_…`) or E.164 phone number.", example: "+14155552671" }),
  senderId: z.string().min(1).max(100).optional().meta({ description: "The number to write from; the workspace's default when left out." }),
});
export type OpenConversationInput = z.output<typeof openConversationSchema>;
