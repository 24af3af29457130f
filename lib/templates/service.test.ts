import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { updateSenderSettings } from "@/lib/senders/service";
import { createTestAccount } from "@/lib/testing/factories";
import { graphError } from "@/lib/channels/whatsapp/testing";
import { fakeGraphForFile } from "@/lib/channels/whatsapp/testing";
import { listTemplates, syncTemplates } from "./service";

const fakeGraph = fakeGraphForFile();

describe("templates", () => {
  it("gives a sandbox workspace its demo templates once, approved first", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const first = await listTemplates(db, workspaceId);
    const again = await listTemplates(db, workspaceId);
    expect(again.map((t) => t.id)).toEqual(first.map((t) => t.id));
    expect(first.map((t) => `${t.name}:${t.status}`)).toEqual([
      "appointment_reminder:APPROVED",
      "order_confirmation:APPROVED",
      "shipping_update:APPROVED",
      "spring_sale:PENDING",
    ]);
    expect(first.every((t) => t.sandbox)).toBe(true);
    expect((await syncTemplates(db, workspaceId)).provider).toBe("sandbox");
  });

  it("syncs every page from WhatsApp Manager and marks vanished templates deleted", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, { provider: "whatsapp", phoneNumberId: "1065403522", wabaId: "1022901293", accessToken: "EAAtok" });
    let remote = [
      { id: "9001", name: "welcome", language: "en_US", category: "MARKETING", status: "APPROVED", parameter_format: "NAMED", components: [{ type: "BODY", text: "Hi {{name}}" }] },
      { id: "9002", name: "receipt", language: "de", category: "UTILITY", status: "REJECTED", components: [{ type: "BODY", text: "Beleg {{1}}" }] },
    ];
    fakeGraph().handle((req) => {
      if (req.path !== "/v23.0/1022901293/message_templates") return { status: 404, body: {} };
      const after = req.query.get("after");
      const index = after ? Number(after) : 0;
      const item = remote[index];
      return { body: { data: item ? [item] : [], paging: index + 1 < remote.length ? { cursors: { after: String(index + 1) }, next: "https://x/next" } : { cursors: {} } } };
    });
    expect(await syncTemplates(db, workspaceId)).toEqual({ provider: "whatsapp", total: 2, approved: 1, removed: 0 });
    const list = await listTemplates(db, workspaceId);
    expect(list.map((t) => [t.name, t.status, t.parameterFormat, t.variables.map((v) => v.key)])).toEqual([
      ["welcome", "APPROVED", "NAMED", ["body.name"]],
      ["receipt", "REJECTED", "POSITIONAL", ["body.1"]],
    ]);

    remote = [{ ...remote[0]!, status: "PAUSED" }];
    expect(await syncTemplates(db, workspaceId)).toEqual({ provider: "whatsapp", total: 1, approved: 0, removed: 1 });
    const after = await listTemplates(db, workspaceId);
    expect(after.map((t) => `${t.name}:${t.status}`).sort()).toEqual(["receipt:DELETED", "welcome:PAUSED"]);
    expect(after.find((t) => t.name === "welcome")!.id).toBe(list.find((t) => t.name === "welcome")!.id);
  });

  it("answers a refused sync with the Graph error and changes nothing", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, { provider: "whatsapp", phoneNumberId: "1065403522", wabaId: "1022901293", accessToken: "EAAtok" });
    fakeGraph().handle(() => graphError(100, "Unsupported get request.", 400));
    await expect(syncTemplates(db, workspaceId)).rejects.toMatchObject({ status: 502, code: "graph_error" });
    expect(await listTemplates(db, workspaceId)).toEqual([]);
  });
});
