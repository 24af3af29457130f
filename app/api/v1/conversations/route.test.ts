import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { conversations, messages } from "@/db/schema";
import type { InboundMessage } from "@/lib/channels/types";
import { randomBase62 } from "@/lib/crypto/random";
import { recordInboundMessages } from "@/lib/inbound/record";
import { parseStrict } from "@/lib/http/request";
import { dispatchSettled } from "@/lib/messaging";
import { conversationEventSchema, conversationPageSchema, conversationSchema, conversationTimelinePageSchema, conversationWithTimelineSchema } from "@/lib/openapi/conversation-schemas";
import { messageSchema } from "@/lib/openapi/schemas";
import type { NextRouteHandler } from "@/lib/routing/route";
import { getSenderRow } from "@/lib/senders/service";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie, type ApiAccount } from "@/lib/testing/api-factories";
import * as assign from "./[id]/assign/route";
import * as close from "./[id]/close/route";
import * as notes from "./[id]/notes/route";
import * as read from "./[id]/read/route";
import * as reopen from "./[id]/reopen/route";
import * as replies from "./[id]/replies/route";
import * as one from "./[id]/route";
import * as timeline from "./[id]/timeline/route";
import * as collection from "./route";

type Problem = { type: string; status: number; errors?: { path: string; code: string }[]; windowEndsAt?: string | null };

const HOUR = 3_600_000;
let phoneCounter = 0;
const newPhone = () => `+1415558${String(++phoneCounter).padStart(4, "0")}`;

function inbound(from: string, at: Date, text = "Where is my parcel?"): InboundMessage {
  return { providerMessageId: `wamid.RT${randomBase62(16)}`, from, profileName: "Ana", at, kind: "text", text, payload: null, media: null, location: null, reaction: null, contextProviderMessageId: null };
}

/** The contact at `phone` writes to the workspace's default number at `at`; returns the conversation's id. */
async function contactWrites(account: ApiAccount, phone: string, at = new Date(), text?: string): Promise<string> {
  const db = await getDb();
  const sender = await getSenderRow(db, account.workspaceId);
  const outcome = await recordInboundMessages(db, { workspaceId: account.workspaceId, senderId: sender.id }, [inbound(phone, at, text)]);
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.contactId, outcome.messages[0]!.contactId!), eq(conversations.senderId, sender.id)));
  return row!.id;
}

const path = (id: string, action = "") => `/api/v1/conversations/${id}${action ? `/${action}` : ""}`;

async function repliesIn(workspaceId: string) {
  const db = await getDb();
  return db.select().from(messages).where(and(eq(messages.workspaceId, workspaceId), eq(messages.source, "reply")));
}

describe("/api/v1/conversations", () => {
  it("an API key lists, reads and replies; the web app's session acts as its member (author, actor)", async () => {
    const account = await createApiAccount();
    const id = await contactWrites(account, newPhone());
    const key = { key: account.key, params: { id } };

    const list = await callRoute(collection.GET, "GET", "/api/v1/conversations", { key: account.key });
    expect(list.status).toBe(200);
    expect(parseStrict(conversationPageSchema, list.body)).toMatchObject({ data: [{ id, status: "open", unread: 1, window: { open: true } }], nextCursor: null, unreadConversations: 1 });

    const reply = await callRoute(replies.POST, "POST", path(id, "replies"), { ...key, body: { type: "text", text: "It left our warehouse this morning." } });
    expect(reply.status).toBe(202);
    expect(parseStrict(messageSchema, reply.body)).toMatchObject({ direction: "outbound", status: "queued", source: "reply", campaignId: null, template: null, text: "It left our warehouse this morning." });

    const cookie = await sessionCookie({ ...account, name: "Olivia" });
    const asMember = { cookie, headers: SAME_ORIGIN, params: { id } };
    expect((await callRoute(replies.POST, "POST", path(id, "replies"), { ...asMember, body: { type: "text", text: "Anything else?" } })).status).toBe(202);
    const note = await callRoute(notes.POST, "POST", path(id, "notes"), { ...asMember, body: { body: "Carrier says tomorrow." } });
    expect(note.status).toBe(201);
    expect(parseStrict(conversationEventSchema, note.body)).toMatchObject({ kind: "note", body: "Carrier says tomorrow.", actor: { id: account.userId, name: "Olivia" } });

    const got = await callRoute(one.GET, "GET", path(id), key);
    expect(got.status).toBe(200);
    const conversation = parseStrict(conversationWithTimelineSchema, got.body);
    expect(conversation.lastMessage).toEqual({ direction: "outbound", preview: "Anything else?" });
    const items = conversation.timeline.data;
    expect(items.map((item) => item.direction)).toEqual(["internal", "outbound", "outbound", "inbound"]);
    expect(items.filter((item) => item.direction === "outbound").map((item) => ("author" in item ? item.author : undefined))).toEqual([{ id: account.userId, name: expect.any(String) }, null]);

    const assigned = await callRoute(assign.POST, "POST", path(id, "assign"), { ...key, body: { assigneeId: account.userId } });
    expect(parseStrict(conversationSchema, assigned.body).assignee).toMatchObject({ id: account.userId });
    expect((await callRoute(assign.POST, "POST", path(id, "assign"), { ...key, body: { assigneeId: "usr_nobody" } })).status).toBe(422);
    expect(parseStrict(conversationSchema, (await callRoute(close.POST, "POST", path(id, "close"), key)).body)).toMatchObject({ status: "closed", closedAt: expect.any(String) });
    expect((await callRoute(collection.GET, "GET", "/api/v1/conversations", { key: account.key })).body).toMatchObject({ data: [] });
    expect(parseStrict(conversationSchema, (await callRoute(reopen.POST, "POST", path(id, "reopen"), key)).body)).toMatchObject({ status: "open", closedAt: null });
    const marked = await callRoute(read.POST, "POST", path(id, "read"), key);
    expect(marked.status).toBe(204);
    expect(marked.body).toBe("");
    expect((await callRoute(one.GET, "GET", path(id), key)).body).toMatchObject({ unread: 0 });
    await dispatchSettled();
  });

  it("another workspace's conversation is 404 on every route, and nothing changes", async () => {
    const owner = await createApiAccount();
    const stranger = await createApiAccount();
    const id = await contactWrites(owner, newPhone());
    const as = (body?: unknown) => ({ key: stranger.key, params: { id }, ...(body === undefined ? {} : { body }) });
    const calls: [NextRouteHandler, string, string, unknown?][] = [
      [one.GET, "GET", path(id)],
      [timeline.GET, "GET", path(id, "timeline")],
      [replies.POST, "POST", path(id, "replies"), { type: "text", text: "Hi" }],
      [notes.POST, "POST", path(id, "notes"), { body: "Mine now" }],
      [assign.POST, "POST", path(id, "assign"), { assigneeId: null }],
      [close.POST, "POST", path(id, "close")],
      [reopen.POST, "POST", path(id, "reopen")],
      [read.POST, "POST", path(id, "read")],
    ];
    for (const [handler, method, url, body] of calls) {
      const answer = await callRoute<Problem>(handler, method, url, as(body));
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.headers.get("content-type"), `${method} ${url}`).toBe("application/problem+json");
    }
    expect((await callRoute(collection.GET, "GET", "/api/v1/conversations?status=all", { key: stranger.key })).body).toMatchObject({ data: [], unreadConversations: 0 });
    expect(await repliesIn(owner.workspaceId)).toEqual([]);
    expect((await callRoute(one.GET, "GET", path(id), { key: owner.key, params: { id } })).body).toMatchObject({ status: "open", unread: 1, timeline: { data: [{ direction: "inbound" }] } });
  });

  it("answers an unchanged list, conversation or timeline with 304 for its ETag, and a new message with 200 and a new ETag", async () => {
    const account = await createApiAccount();
    const phone = newPhone();
    const id = await contactWrites(account, phone, new Date(Date.now() - 60_000));
    const reads: [NextRouteHandler, string][] = [
      [collection.GET, "/api/v1/conversations"],
      [one.GET, path(id)],
      [timeline.GET, path(id, "timeline")],
    ];
    const first = await Promise.all(reads.map(([handler, url]) => callRoute(handler, "GET", url, { key: account.key, params: { id } })));
    for (const answer of first) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    }
    for (const [index, [handler, url]] of reads.entries()) {
      const etag = first[index]!.headers.get("etag")!;
      const unchanged = await callRoute(handler, "GET", url, { key: account.key, params: { id }, headers: { "if-none-match": etag } });
      expect(unchanged.status, url).toBe(304);
      expect(unchanged.body, url).toBe("");
      expect(unchanged.headers.get("etag"), url).toBe(etag);
    }
    parseStrict(conversationTimelinePageSchema, first[2]!.body);

    await contactWrites(account, phone, new Date(), "Any news?");
    for (const [index, [handler, url]] of reads.entries()) {
      const etag = first[index]!.headers.get("etag")!;
      const changed = await callRoute(handler, "GET", url, { key: account.key, params: { id }, headers: { "if-none-match": etag } });
      expect(changed.status, url).toBe(200);
      expect(changed.headers.get("etag"), url).not.toBe(etag);
      expect(JSON.stringify(changed.body), url).toContain("Any news?");
    }
  });

  it("refuses bad reply bodies with 422 problem+json naming the field, never a 500, and queues nothing", async () => {
    const account = await createApiAccount();
    const id = await contactWrites(account, newPhone());
    const send = (body: unknown) => callRoute<Problem>(replies.POST, "POST", path(id, "replies"), { key: account.key, params: { id }, body });
    const refusals: [unknown, string][] = [
      [{ type: "image", url: "http://cdn.example.com/photo.jpg" }, "url"],
      [{ type: "document", url: "not a url" }, "url"],
      [{ type: "image", url: "https://127.0.0.1/photo.jpg" }, "url"],
      [{ type: "text", text: "x".repeat(4097) }, "text"],
      [{ type: "text", text: "   " }, "text"],
      [{ type: "image", url: "https://cdn.example.com/photo.jpg", caption: "x".repeat(1025) }, "caption"],
      [{ type: "sticker", url: "https://cdn.example.com/s.webp" }, "type"],
      [{ text: "No type" }, "type"],
      [{ type: "text", text: "Hi", colour: "red" }, "colour"],
      [{ type: "template", templateId: "tpl_doesnotexist" }, "templateId"],
    ];
    for (const [body, field] of refusals) {
      const answer = await send(body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.body.errors?.map((error) => error.path), JSON.stringify(body)).toContain(field);
    }
    expect((await send("{")).status).toBe(400);
    expect((await send([])).status).toBe(422);
    expect(await repliesIn(account.workspaceId)).toEqual([]);
  });

  it("outside the 24-hour window a free-form reply is 409 window_closed with the window's end, and nothing is queued", async () => {
    const account = await createApiAccount();
    const wroteAt = new Date(Date.now() - 25 * HOUR);
    const id = await contactWrites(account, newPhone(), wroteAt);
    const got = await callRoute(one.GET, "GET", path(id), { key: account.key, params: { id } });
    expect(got.body).toMatchObject({ window: { open: false, endsAt: new Date(wroteAt.getTime() + 24 * HOUR).toISOString() } });
    for (const body of [{ type: "text", text: "Sorry for the wait!" }, { type: "image", url: "https://cdn.example.com/photo.jpg" }]) {
      const refused = await callRoute<Problem>(replies.POST, "POST", path(id, "replies"), { key: account.key, params: { id }, body });
      expect(refused.status).toBe(409);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(refused.body).toMatchObject({ type: expect.stringMatching(/#error-window_closed$/), windowEndsAt: new Date(wroteAt.getTime() + 24 * HOUR).toISOString() });
    }
    expect(await repliesIn(account.workspaceId)).toEqual([]);
  });
});
