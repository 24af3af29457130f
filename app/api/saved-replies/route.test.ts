import { describe, expect, it } from "vitest";
import { fillSavedReply } from "@/lib/conversations/fill-saved-reply";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { DELETE, PUT } from "./[id]/route";
import { GET, POST } from "./route";

async function member() {
  const account = await createApiAccount();
  return { ...account, cookie: await sessionCookie(account) };
}

describe("saved replies", () => {
  it("members add, list (by title), rename and delete them; names are unique per workspace; another workspace's is 404", async () => {
    const me = await member();
    const post = (body: unknown) => callRoute<{ id: string }>(POST, "POST", "/api/saved-replies", { cookie: me.cookie, headers: SAME_ORIGIN, body });
    const shipping = await post({ title: "Shipping times", body: "Hi {{first_name}}, orders ship within 2 days." });
    expect(shipping).toMatchObject({ status: 201, body: { title: "Shipping times" } });
    await post({ title: "Address", body: "Calle Mayor 1" });
    expect((await post({ title: "Address", body: "again" })).status).toBe(409);
    expect((await post({ title: "", body: "" })).status).toBe(422);
    const list = await callRoute<{ data: { title: string }[] }>(GET, "GET", "/api/saved-replies", { cookie: me.cookie });
    expect(list.body.data.map((r) => r.title)).toEqual(["Address", "Shipping times"]);

    const url = `/api/saved-replies/${shipping.body.id}`;
    expect((await callRoute(PUT, "PUT", url, { cookie: me.cookie, headers: SAME_ORIGIN, params: { id: shipping.body.id }, body: { title: "Address", body: "x" } })).status).toBe(409);
    expect((await callRoute(PUT, "PUT", url, { cookie: me.cookie, headers: SAME_ORIGIN, params: { id: shipping.body.id }, body: { title: "Delivery", body: "x" } })).body).toMatchObject({ title: "Delivery" });
    const stranger = await member();
    expect((await callRoute(DELETE, "DELETE", url, { cookie: stranger.cookie, headers: SAME_ORIGIN, params: { id: shipping.body.id } })).status).toBe(404);
    expect((await callRoute(DELETE, "DELETE", url, { cookie: me.cookie, headers: SAME_ORIGIN, params: { id: shipping.body.id } })).status).toBe(204);
    expect((await callRoute(GET, "GET", "/api/saved-replies", { key: me.key })).status).toBe(401);
  });

  it("fills {{attributes}} from the contact and leaves unknown ones for the member to see", () => {
    const contact = { name: "Maria López", phone: "+34600000000", attributes: { order_number: "A-1" } };
    expect(fillSavedReply("Hi {{first_name}} ({{ name }}), order {{order_number}} ships {{ship_date}}.", contact)).toBe("Hi Maria (Maria López), order A-1 ships {{ship_date}}.");
    expect(fillSavedReply("Hi {{first_name}}", { name: null, phone: "+1" })).toBe("Hi {{first_name}}");
  });
});
