import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { getTemplateRow } from "./service";
import { createSender } from "@/lib/senders/collection";
import { getSenderRowById, updateSenderSettings } from "@/lib/senders/service";
import { createTestAccount } from "@/lib/testing/factories";
import { graphError } from "@/lib/channels/whatsapp/testing";
import { fakeGraphForFile } from "@/lib/channels/whatsapp/testing";
import { listTemplates, syncTemplates, templateFitsSender } from "./service";

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
      "weekly_offers:APPROVED",
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
      { id: "9002", name: "receipt", language: "de", category: "UTILITY", status: "REJECTED", rejected_reason: "INVALID_FORMAT", components: [{ type: "BODY", text: "Beleg {{1}}" }] },
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
    // The Templates page shows why, in the words the status webhook uses.
    expect(list.find((t) => t.name === "receipt")!.statusReason).toBe("The template's format is invalid (variables, examples or length).");
    expect(list.find((t) => t.name === "welcome")!.statusReason).toBeNull();

    remote = [{ ...remote[0]!, status: "PAUSED" }];
    expect(await syncTemplates(db, workspaceId)).toEqual({ provider: "whatsapp", total: 1, approved: 0, removed: 1 });
    const after = await listTemplates(db, workspaceId);
    expect(after.map((t) => `${t.name}:${t.status}`).sort()).toEqual(["receipt:DELETED", "welcome:PAUSED"]);
    expect(after.find((t) => t.name === "welcome")!.id).toBe(list.find((t) => t.name === "welcome")!.id);
  });

  it("keeps a rejection reason up to date: a new reason replaces it, approval clears it, a list without one keeps the webhook's", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, { provider: "whatsapp", phoneNumberId: "1065403523", wabaId: "1022901294", accessToken: "EAAtok" });
    const template = { id: "9101", name: "promo", language: "en", category: "UTILITY", components: [{ type: "BODY", text: "Sale!" }] };
    let remote: Record<string, unknown>[] = [{ ...template, status: "REJECTED", rejected_reason: "PROMOTIONAL" }];
    fakeGraph().handle((req) => (req.path === "/v23.0/1022901294/message_templates" ? { body: { data: remote, paging: { cursors: {} } } } : { status: 404, body: {} }));
    const reason = async () => (await listTemplates(db, workspaceId)).find((t) => t.name === "promo")!.statusReason;

    await syncTemplates(db, workspaceId);
    expect(await reason()).toBe("Promotional content is not allowed in this category.");
    remote = [{ ...template, status: "REJECTED", rejected_reason: "TAG_CONTENT_MISMATCH" }];
    await syncTemplates(db, workspaceId);
    expect(await reason()).toBe("The content does not match the category or language chosen.");
    // Still rejected, the list saying NONE: the reason already stored (by a sync or the status webhook) stays.
    remote = [{ ...template, status: "REJECTED", rejected_reason: "NONE" }];
    await syncTemplates(db, workspaceId);
    expect(await reason()).toBe("The content does not match the category or language chosen.");
    remote = [{ ...template, status: "APPROVED", rejected_reason: "NONE" }];
    await syncTemplates(db, workspaceId);
    expect(await reason()).toBeNull();
  });

  it("answers a refused sync with the Graph error and changes nothing", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, { provider: "whatsapp", phoneNumberId: "1065403522", wabaId: "1022901293", accessToken: "EAAtok" });
    fakeGraph().handle(() => graphError(100, "Unsupported get request.", 400));
    await expect(syncTemplates(db, workspaceId)).rejects.toMatchObject({ status: 502, code: "graph_error" });
    expect(await listTemplates(db, workspaceId)).toEqual([]);
  });

  it("keeps each business account's templates apart: a same-named template in two accounts, each sender lists and sends its own", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const fr = await createSender(db, workspaceId, { provider: "whatsapp", name: "FR", phoneNumberId: "1065403522", wabaId: "1022901293", accessToken: "EAAfr" });
    const de = await createSender(db, workspaceId, { provider: "whatsapp", name: "DE", phoneNumberId: "1065403599", wabaId: "1022909999", accessToken: "EAAde" });
    const frSecond = await createSender(db, workspaceId, { provider: "whatsapp", name: "FR 2", phoneNumberId: "1065403577", wabaId: "1022901293", accessToken: "EAAfr2" });
    fakeGraph().handle((req) => {
      const waba = /^\/v23\.0\/(\d+)\/message_templates$/.exec(req.path)?.[1];
      if (!waba) return { status: 404, body: {} };
      const text = waba === "1022901293" ? "Bonjour {{1}}" : "Hallo {{1}}";
      return { body: { data: [{ id: `t${waba}`, name: "hello", language: "en_US", category: "UTILITY", status: "APPROVED", components: [{ type: "BODY", text }] }], paging: { cursors: {} } } };
    });
    await syncTemplates(db, workspaceId, { senderId: fr.id });
    await syncTemplates(db, workspaceId, { senderId: de.id });
    const frList = await listTemplates(db, workspaceId, { senderId: fr.id });
    const deList = await listTemplates(db, workspaceId, { senderId: de.id });
    expect(frList.map((t) => t.components)).toEqual([[{ type: "BODY", text: "Bonjour {{1}}" }]]);
    expect(deList.map((t) => t.components)).toEqual([[{ type: "BODY", text: "Hallo {{1}}" }]]);
    // One sync serves every number of the account.
    expect((await listTemplates(db, workspaceId, { senderId: frSecond.id })).map((t) => t.id)).toEqual(frList.map((t) => t.id));
    // A campaign's template must be its sender's account's; the sandbox only sends its demo templates.
    const frTemplate = (await getTemplateRow(db, workspaceId, frList[0]!.id))!;
    expect(templateFitsSender(frTemplate, await getSenderRowById(db, workspaceId, fr.id))).toBe(true);
    expect(templateFitsSender(frTemplate, await getSenderRowById(db, workspaceId, de.id))).toBe(false);
    expect(templateFitsSender(frTemplate, { provider: "sandbox", wabaId: null, workspaceId })).toBe(false);
    await expect(listTemplates(db, workspaceId, { senderId: "snd_missing" })).rejects.toMatchObject({ status: 404 });
  });
});
