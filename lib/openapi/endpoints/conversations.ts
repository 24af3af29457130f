// Endpoints of the inbox (lib/conversations); spread into ENDPOINTS in ../registry.ts.
import { assignSchema, listConversationsQuerySchema, noteSchema, openConversationSchema, replySchema } from "@/lib/conversations/schemas";
import { conversationTimelineQuerySchema } from "@/lib/conversations/timeline";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter, type SuccessResponse } from "../endpoint";
import { conversationEventSchema, conversationPageSchema, conversationSchema, conversationTimelinePageSchema, conversationWithTimelineSchema } from "../conversation-schemas";
import { EXAMPLE_IDS, messageSchema } from "../schemas";

const conversationIdParam: Parameter = { name: "id", description: "The conversation's id (`cnv_…`).", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.conversation };

const ifNoneMatch: Parameter = {
  name: "If-None-Match",
  description: "The `ETag` of the previous answer: `304 Not Modified` with no body when nothing changed since. Poll with it.",
  schema: { type: "string" },
  example: '"Xk2bL9sQ0vR4tY7uW1zA3cE5gI8jM6nP"',
};

const ETAG_HEADER = { ETag: { description: "A strong validator of the body: send it back as `If-None-Match`.", schema: { type: "string" }, required: true } };

/** 200 with an ETag, or 304 when `If-None-Match` names the current one. */
function pollable(description: string, schema: SuccessResponse["schema"], example: unknown): SuccessResponse[] {
  return [
    { status: 200, description, schema, example, headers: ETAG_HEADER },
    { status: 304, description: "Nothing changed since the `ETag` sent in `If-None-Match`: no body.", headers: ETAG_HEADER },
  ];
}

const WINDOW_END = "2026-11-22T13:58:40.000Z";
const OLIVIA = { id: "usr_8cLq2ZRt5WnY", name: "Olivia" };

export const conversationExample = {
  id: EXAMPLE_IDS.conversation,
  object: "conversation",
  status: "open",
  contact: { id: EXAMPLE_IDS.contact, phone: "+14155552671", name: "Maria", optedOut: false, consentStatus: "subscribed" },
  sender: { id: EXAMPLE_IDS.sender, name: "Brand FR", phone: "+33 6 12 34 56 78" },
  assignee: OLIVIA,
  campaign: { id: EXAMPLE_IDS.campaign, name: "Order confirmation" },
  unread: 1,
  lastMessage: { direction: "inbound", preview: "Where is my parcel?" },
  lastActivityAt: "2026-11-21T13:58:40.000Z",
  lastInboundAt: "2026-11-21T13:58:40.000Z",
  window: { open: true, endsAt: WINDOW_END },
  closedAt: null,
  createdAt: "2026-11-21T13:58:41.204Z",
};

const replyExample = {
  id: EXAMPLE_IDS.message,
  object: "message",
  direction: "outbound",
  status: "queued",
  campaignId: null,
  phone: "+14155552671",
  template: null,
  text: "It left our warehouse this morning: you'll have it tomorrow.",
  wamid: null,
  error: null,
  attempts: 0,
  nextAttemptAt: null,
  repliedAt: null,
  source: "reply",
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
  sentAt: null,
  deliveredAt: null,
  readAt: null,
  failedAt: null,
};

const noteExample = {
  id: "cev_7NbV2cXz5lKj0HgA",
  object: "conversation_event",
  direction: "internal",
  kind: "note",
  actor: OLIVIA,
  assignee: null,
  body: "Carrier says it's at the depot.",
  createdAt: EXAMPLE_TIME,
};

const timelineExample = {
  data: [
    { ...replyExample, status: "delivered", wamid: "wamid.HBgLMTQxNTU1NTI2NzE", sentAt: EXAMPLE_TIME, deliveredAt: EXAMPLE_TIME, campaignName: null, author: OLIVIA, automatic: false },
    noteExample,
    { ...noteExample, id: "cev_2MnB8vCx1zLk4JhG", kind: "assigned", assignee: OLIVIA, body: null, createdAt: "2026-11-21T14:00:02.000Z" },
    {
      id: EXAMPLE_IDS.inboundMessage,
      object: "message",
      direction: "inbound",
      kind: "text",
      phone: "+14155552671",
      contactId: EXAMPLE_IDS.contact,
      senderId: EXAMPLE_IDS.sender,
      text: "Where is my parcel?",
      payload: null,
      media: null,
      location: null,
      reaction: null,
      wamid: "wamid.HBgLMTQxNTU1NTI2NzEVAgASGBQzQTVGQkI2",
      replyToMessageId: "msg_2DfG5hJk8lZx1CvB",
      campaignId: EXAMPLE_IDS.campaign,
      receivedAt: "2026-11-21T13:58:40.000Z",
      createdAt: "2026-11-21T13:58:41.204Z",
      campaignName: "Order confirmation",
    },
  ],
  nextCursor: "WyJvIiwiMjAyNi0xMS0yMVQxMzo1ODo0MS4yMDQwMDBaIiwiaW5tXzNXcUU1clR5N3VJbzlQYVMiXQ",
};

const WINDOW_RULE =
  "Free-form replies (`text`, `image`, `document`) go only inside WhatsApp's customer-service window, 24 hours after the contact's last message (`window` on the conversation); after it the answer is `409 window_closed` with `windowEndsAt`. A `template` goes at any time.";

const VISIBILITY =
  "An API key sees every conversation of the workspace; another workspace's conversation is 404.";

/** A POST on a conversation with no body that answers with the conversation. */
const statusAction = (action: "close" | "reopen"): Endpoint => ({
  operationId: action === "close" ? "closeConversation" : "reopenConversation",
  method: "POST",
  path: `/api/v1/conversations/{id}/${action}`,
  tag: "Conversations",
  summary: action === "close" ? "Close a conversation" : "Reopen a conversation",
  description:
    action === "close"
      ? "Marks it closed (`closedAt` set; the timeline gets a `closed` event). Closing a closed conversation changes nothing. The contact's next message reopens it. Emits `conversation.closed`. Audited. No body."
      : "Marks it open again (the timeline gets a `reopened` event). Reopening an open conversation changes nothing. Audited. No body.",
  auth: "apiKey",
  pathParams: [conversationIdParam],
  responses: [
    {
      status: 200,
      description: "The conversation.",
      schema: conversationSchema,
      example: action === "close" ? { ...conversationExample, status: "closed", unread: 0, closedAt: EXAMPLE_TIME } : { ...conversationExample, unread: 0 },
    },
  ],
  errors: [],
});

export const CONVERSATIONS_ENDPOINTS: Endpoint[] = [
  {
    operationId: "listConversations",
    method: "GET",
    path: "/api/v1/conversations",
    tag: "Conversations",
    summary: "List conversations",
    description: `The inbox: one conversation per contact and number, newest activity first, with keyset cursors. Open ones by default (\`status\`); filter by assignment, number, the campaign that started it, unread messages, or the contact's phone or name. ${VISIBILITY} Answers with an \`ETag\`; send it back as \`If-None-Match\` to get \`304\` while nothing changed.`,
    auth: "apiKey",
    query: listConversationsQuerySchema,
    headers: [ifNoneMatch],
    responses: pollable("One page of conversations.", conversationPageSchema, {
      data: [conversationExample],
      nextCursor: null,
      unreadConversations: 1,
    }),
    errors: ["validation_failed"],
    example: { query: { assigned: "unassigned", unread: "true" } },
  },
  {
    operationId: "openConversation",
    method: "POST",
    path: "/api/v1/conversations",
    tag: "Conversations",
    summary: "Open a contact's conversation",
    description:
      "The conversation of a contact (id or E.164 phone) on a number (the workspace's default when `senderId` is left out): `201` when it is new, `200` with the existing one. To write first: no window is open until the contact writes, so answer with a `template` reply. Another workspace's contact or number is 404.",
    auth: "apiKey",
    body: { schema: openConversationSchema, strict: true, required: true, example: { contact: "+14155552671" } },
    responses: [
      { status: 201, description: "A new conversation, open, nothing unread.", schema: conversationSchema, example: { ...conversationExample, assignee: null, campaign: null, unread: 0, lastMessage: null, lastInboundAt: null, window: { open: false, endsAt: null } } },
      { status: 200, description: "The contact's existing conversation on that number.", schema: conversationSchema, example: conversationExample },
    ],
    errors: [...JSON_BODY_ERRORS, "not_found"],
  },
  {
    operationId: "getConversation",
    method: "GET",
    path: "/api/v1/conversations/{id}",
    tag: "Conversations",
    summary: "Get a conversation",
    description: `The conversation with the newest page of its timeline (\`timeline\`). Reading it does not mark it read (\`POST …/read\` does). ${VISIBILITY} Answers with an \`ETag\` (\`304\` for a matching \`If-None-Match\`).`,
    auth: "apiKey",
    pathParams: [conversationIdParam],
    headers: [ifNoneMatch],
    responses: pollable("The conversation and its newest timeline page.", conversationWithTimelineSchema, { ...conversationExample, timeline: timelineExample }),
    errors: [],
  },
  {
    operationId: "listConversationTimeline",
    method: "GET",
    path: "/api/v1/conversations/{id}/timeline",
    tag: "Conversations",
    summary: "Read a conversation's timeline",
    description:
      "Newest first under one cursor: messages sent to the contact on the conversation's number (campaign messages with their status, replies with their author), the contact's messages of every kind, and notes, assignments and status changes (`direction: \"internal\"`). Answers with an `ETag` (`304` for a matching `If-None-Match`).",
    auth: "apiKey",
    pathParams: [conversationIdParam],
    query: conversationTimelineQuerySchema,
    headers: [ifNoneMatch],
    responses: pollable("One page of the timeline.", conversationTimelinePageSchema, timelineExample),
    errors: ["validation_failed"],
  },
  {
    operationId: "replyToConversation",
    method: "POST",
    path: "/api/v1/conversations/{id}/replies",
    tag: "Conversations",
    summary: "Reply in a conversation",
    description: `Queues one message to the contact from the conversation's number, sent right after the response by the same dispatcher as campaign messages (its statuses and \`message.*\` events follow). ${WINDOW_RULE} \`type\` picks the body: \`text\` (at most 4,096 characters), \`image\` or \`document\` by https URL (checked to answer; caption at most 1,024 characters), or \`template\` (an approved template of the number, a value for each variable). A marketing template to a contact who opted out is \`409 contact_opted_out\`. Replies have no campaign (\`source: "reply"\`) and are audited.`,
    auth: "apiKey",
    pathParams: [conversationIdParam],
    body: {
      schema: replySchema,
      strict: true,
      required: true,
      description: "One of: `{ type: \"text\", text }`, `{ type: \"image\", url, caption? }`, `{ type: \"document\", url, caption?, filename? }`, `{ type: \"template\", templateId, variables? }`.",
      example: { type: "text", text: "It left our warehouse this morning: you'll have it tomorrow." },
    },
    responses: [{ status: 202, description: "The reply, queued.", schema: messageSchema, example: replyExample }],
    errors: [...JSON_BODY_ERRORS, "window_closed", "contact_opted_out", "sender_replaced"],
  },
  {
    operationId: "addConversationNote",
    method: "POST",
    path: "/api/v1/conversations/{id}/notes",
    tag: "Conversations",
    summary: "Add an internal note",
    description: "A note on the timeline for the team; never sent to the contact. At most 4,096 characters.",
    auth: "apiKey",
    pathParams: [conversationIdParam],
    body: { schema: noteSchema, strict: true, required: true, example: { body: "Carrier says it's at the depot." } },
    responses: [{ status: 201, description: "The note, as the timeline shows it.", schema: conversationEventSchema, example: { ...noteExample, actor: null } }],
    errors: JSON_BODY_ERRORS,
  },
  {
    operationId: "assignConversation",
    method: "POST",
    path: "/api/v1/conversations/{id}/assign",
    tag: "Conversations",
    summary: "Assign a conversation",
    description:
      "Assigns it to a member of the workspace (their user id; anyone else is 422), or to nobody with `null`. Assigning it to its assignee changes nothing. Emits `conversation.assigned` (not when unassigned). Audited.",
    auth: "apiKey",
    pathParams: [conversationIdParam],
    body: { schema: assignSchema, strict: true, required: true, example: { assigneeId: OLIVIA.id } },
    responses: [{ status: 200, description: "The conversation.", schema: conversationSchema, example: conversationExample }],
    errors: JSON_BODY_ERRORS,
  },
  statusAction("close"),
  statusAction("reopen"),
  {
    operationId: "markConversationRead",
    method: "POST",
    path: "/api/v1/conversations/{id}/read",
    tag: "Conversations",
    summary: "Mark a conversation read",
    description: "Its `unread` count goes to 0, for the whole team. No body.",
    auth: "apiKey",
    pathParams: [conversationIdParam],
    responses: [{ status: 204, description: "Read." }],
    errors: [],
  },
];
