// The conversations API (`/api/v1/conversations…`): the inbox and integrators call the same routes,
// with a session or an API key. Lists and a conversation answer with an ETag (304 when unchanged),
// for pollers.
import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { parseQuery, readStrictBody } from "@/lib/http/request";
import { dispatchSoon } from "@/lib/messaging";
import { json, jsonWithEtag, onlyMethods, withWorkspace, type WorkspaceContext } from "@/lib/routing/route";
import { sendReply } from "./reply";
import { assignSchema, listConversationsQuerySchema, noteSchema, openConversationSchema, replySchema } from "./schemas";
import { addNote, assignConversation, getConversation, listConversations, markConversationRead, openConversation, setConversationStatus, type Viewer } from "./service";
import { conversationTimeline, conversationTimelineQuerySchema, type ConversationEventItem } from "./timeline";

type Params = { id: string };
const viewerOf = ({ workspaceId, actor, role }: WorkspaceContext<unknown>): Viewer => ({ workspaceId, actor, role });

export const conversationListRoutes = {
  ...onlyMethods(["GET", "POST"]),
  /** 201 with a new conversation, 200 with the existing one. */
  POST: withWorkspace(async (context) => {
    const input = await readStrictBody(context.request, openConversationSchema);
    const { conversation, created } = await openConversation(await getDb(), viewerOf(context), input);
    return json(conversation, { status: created ? 201 : 200 });
  }),
  GET: withWorkspace(async (context) => {
    const query = parseQuery(listConversationsQuerySchema, new URL(context.request.url));
    return jsonWithEtag(context.request, await listConversations(await getDb(), viewerOf(context), query));
  }),
};

/** The conversation with the newest page of its timeline. */
export const conversationRoutes = {
  ...onlyMethods(["GET"]),
  GET: withWorkspace<Params>(async (context) => {
    const db = await getDb();
    const viewer = viewerOf(context);
    const conversation = await getConversation(db, viewer, context.params.id);
    return jsonWithEtag(context.request, { ...conversation, timeline: await conversationTimeline(db, viewer, conversation.id) });
  }),
};

export const conversationTimelineRoutes = {
  ...onlyMethods(["GET"]),
  GET: withWorkspace<Params>(async (context) => {
    const query = parseQuery(conversationTimelineQuerySchema, new URL(context.request.url));
    return jsonWithEtag(context.request, await conversationTimeline(await getDb(), viewerOf(context), context.params.id, query));
  }),
};

export const conversationReplyRoutes = {
  ...onlyMethods(["POST"]),
  POST: withWorkspace<Params>(async (context) => {
    const input = await readStrictBody(context.request, replySchema);
    const message = await sendReply(await getDb(), viewerOf(context), context.params.id, input, auditActorFromRequest(context.request, context.actor));
    dispatchSoon();
    return json(message, { status: 202 });
  }),
};

export const conversationNoteRoutes = {
  ...onlyMethods(["POST"]),
  POST: withWorkspace<Params>(async (context) => {
    const { body } = await readStrictBody(context.request, noteSchema);
    const note = await addNote(await getDb(), viewerOf(context), context.params.id, body);
    const actor = context.actor.type === "user" ? { id: context.actor.id, name: context.actor.name } : null;
    const item: ConversationEventItem = { id: note.id, object: "conversation_event", direction: "internal", kind: "note", actor, assignee: null, body: note.body, createdAt: note.createdAt.toISOString() };
    return json(item, { status: 201 });
  }),
};

export const conversationAssignRoutes = {
  ...onlyMethods(["POST"]),
  POST: withWorkspace<Params>(async (context) => {
    const { assigneeId } = await readStrictBody(context.request, assignSchema);
    return json(await assignConversation(await getDb(), viewerOf(context), context.params.id, assigneeId, auditActorFromRequest(context.request, context.actor)));
  }),
};

const statusRoutes = (status: "open" | "closed") => ({
  ...onlyMethods(["POST"]),
  POST: withWorkspace<Params>(async (context) =>
    json(await setConversationStatus(await getDb(), viewerOf(context), context.params.id, status, auditActorFromRequest(context.request, context.actor))),
  ),
});
export const conversationCloseRoutes = statusRoutes("closed");
export const conversationReopenRoutes = statusRoutes("open");

/** A member opened the conversation: its unread count goes to 0. */
export const conversationReadRoutes = {
  ...onlyMethods(["POST"]),
  POST: withWorkspace<Params>(async (context) => {
    await markConversationRead(await getDb(), viewerOf(context), context.params.id);
    return new Response(null, { status: 204 });
  }),
};
