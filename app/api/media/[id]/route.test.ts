import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, senders } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { recordInboundMessages } from "@/lib/inbound/record";
import { createApiAccount, sessionCookie } from "@/lib/testing/api-factories";
import { testInboundMessage } from "@/lib/testing/messaging-factories";
import { GET } from "./route";

async function workspaceWithMedia() {
  const account = await createApiAccount();
  const db = await getDb();
  const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, account.workspaceId));
  const from = `+1415559${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
  await db.insert(contacts).values({ id: newId("ctc"), workspaceId: account.workspaceId, phoneNumber: from });
  const media = { id: "sandbox-media-abc", mimeType: "image/jpeg", caption: "This one", filename: null, kind: "image" as const };
  const outcome = await recordInboundMessages(db, { workspaceId: account.workspaceId, senderId: sender!.id }, [
    testInboundMessage(from, { kind: "media", text: "This one", media }),
    testInboundMessage(from, { text: "No media here" }),
  ]);
  return { ...account, cookie: await sessionCookie(account), mediaId: outcome.messages[0]!.id, textId: outcome.messages[1]!.id };
}

const get = (id: string, cookie?: string, key?: string) => {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (key) headers["x-api-key"] = key;
  return GET(new Request(`http://localhost/api/media/${id}`, { headers }), { params: Promise.resolve({ id }) });
};

describe("GET /api/media/{id}", () => {
  it("serves the sandbox's placeholder for a contact's image, inline and unable to run anything", async () => {
    const fx = await workspaceWithMedia();
    const response = await get(fx.mediaId, fx.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("content-disposition")).toMatch(/^inline; filename="image-inm_/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("sandbox");
    expect(await response.text()).toContain("<svg");
  });

  it("is 404 for a message without media or another workspace's, and the web app's only", async () => {
    const fx = await workspaceWithMedia();
    const stranger = await workspaceWithMedia();
    expect((await get(fx.textId, fx.cookie)).status).toBe(404);
    expect((await get(fx.mediaId, stranger.cookie)).status).toBe(404);
    expect((await get(fx.mediaId, undefined, fx.key)).status).toBe(401);
  });
});
