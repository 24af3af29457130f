import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as webhookPost } from "@/app/api/webhooks/whatsapp/route";
import { getDb } from "@/db";
import { auditEvents, templates } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { getChannel } from "@/lib/channels";
import { fakeGraphForFile, graphError } from "@/lib/channels/whatsapp/testing";
import { createTestAccount } from "@/lib/testing/factories";
import { connectTestWhatsAppSender } from "@/lib/testing/messaging-factories";
import { templateDefinitionSchema, type TemplateDefinition } from "./definition";
import { settleSandboxReviews } from "./review";
import { listTemplates } from "./service";
import { submitTemplate } from "./submit";

const fakeGraph = fakeGraphForFile();

function definition(overrides: Partial<TemplateDefinition> = {}): TemplateDefinition {
  return templateDefinitionSchema.parse({
    name: "winter_sale",
    category: "MARKETING",
    language: "en_US",
    header: { type: "TEXT", text: "Winter sale" },
    body: "Hi {{first_name}}, our winter sale starts today: 20% off everything until Sunday.",
    footer: "Reply STOP to opt out",
    buttons: [{ type: "QUICK_REPLY", text: "Interested" }],
    examples: { first_name: "Maria" },
    ...overrides,
  });
}

const later = (ms: number) => new Date(Date.now() + ms);

describe("submitting a template in the sandbox", () => {
  it("stores it PENDING, then the sandbox's review approves it after the review delay", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const submitted = await submitTemplate(db, workspaceId, definition(), SYSTEM_ACTOR);
    expect(submitted).toMatchObject({ name: "winter_sale", status: "PENDING", statusReason: null, sandbox: true, parameterFormat: "NAMED" });
    expect(submitted.variables.map((v) => v.key)).toEqual(["body.first_name"]);
    expect(submitted.submittedAt).not.toBeNull();
    // Not yet due: the review takes SANDBOX_TEMPLATE_REVIEW_MS.
    expect(await settleSandboxReviews(db, workspaceId, new Date())).toBe(0);
    expect(await settleSandboxReviews(db, workspaceId, later(60_000))).toBeGreaterThanOrEqual(1);
    const row = (await listTemplates(db, workspaceId)).find((t) => t.id === submitted.id)!;
    expect(row.status).toBe("APPROVED");
    const [audit] = await db.select().from(auditEvents).where(and(eq(auditEvents.workspaceId, workspaceId), eq(auditEvents.action, "template.submitted")));
    expect(audit).toMatchObject({ targetId: submitted.id, metadata: { name: "winter_sale", language: "en_US", category: "MARKETING" } });
  });

  it("rejects a body with too many variables for its length, with WhatsApp's reason", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const submitted = await submitTemplate(
      db,
      workspaceId,
      definition({ name: "crowded", body: "Hi {{1}} {{2}} and {{3}} now", examples: { "1": "a", "2": "b", "3": "c" } }),
      SYSTEM_ACTOR,
    );
    await settleSandboxReviews(db, workspaceId, later(60_000));
    const row = (await listTemplates(db, workspaceId)).find((t) => t.id === submitted.id)!;
    expect(row.status).toBe("REJECTED");
    expect(row.statusReason).toMatch(/too many variables/);
  });

  it("approves the seeded marketing template instead of leaving it pending", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    expect((await listTemplates(db, workspaceId)).find((t) => t.name === "spring_sale")!.status).toBe("PENDING");
    await settleSandboxReviews(db, workspaceId, later(60_000));
    expect((await listTemplates(db, workspaceId)).find((t) => t.name === "spring_sale")!.status).toBe("APPROVED");
  });

  it("refuses a definition that breaks a rule, and a taken name, without storing anything", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await expect(submitTemplate(db, workspaceId, definition({ name: "Winter Sale", footer: "x".repeat(61) }), SYSTEM_ACTOR)).rejects.toMatchObject({
      status: 422,
      code: "validation_failed",
      errors: [expect.objectContaining({ path: "name" }), expect.objectContaining({ path: "footer" })],
    });
    await submitTemplate(db, workspaceId, definition(), SYSTEM_ACTOR);
    await expect(submitTemplate(db, workspaceId, definition(), SYSTEM_ACTOR)).rejects.toMatchObject({ status: 409, code: "template_exists" });
    const rows = await db.select().from(templates).where(and(eq(templates.workspaceId, workspaceId), eq(templates.name, "winter_sale")));
    expect(rows).toHaveLength(1);
  });
});

describe("submitting a template to WhatsApp", () => {
  it("POSTs Meta's component JSON to the business account's message_templates and stores the answer's id", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const sender = await connectTestWhatsAppSender(workspaceId);
    const before = fakeGraph().requests.length;
    const submitted = await submitTemplate(db, workspaceId, definition(), SYSTEM_ACTOR);
    const request = fakeGraph().requests.slice(before).find((r) => r.path.endsWith("/message_templates"))!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/v23.0/${sender.wabaId}/message_templates`);
    expect(request.headers.authorization).toBe(`Bearer ${sender.accessToken}`);
    expect(request.body).toEqual({
      name: "winter_sale",
      language: "en_US",
      category: "MARKETING",
      parameter_format: "named",
      components: [
        { type: "HEADER", format: "TEXT", text: "Winter sale" },
        {
          type: "BODY",
          text: "Hi {{first_name}}, our winter sale starts today: 20% off everything until Sunday.",
          example: { body_text_named_params: [{ param_name: "first_name", example: "Maria" }] },
        },
        { type: "FOOTER", text: "Reply STOP to opt out" },
        { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Interested" }] },
      ],
    });
    expect(submitted).toMatchObject({ status: "PENDING", sandbox: false });
    const [row] = await db.select().from(templates).where(eq(templates.id, submitted.id));
    expect(row!.externalId).toMatch(/^\d+$/);
    expect(row!.account).toBe(`waba:${sender.wabaId}`);
  });

  it("answers WhatsApp's refusal as 422 with its words, and stores nothing", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await connectTestWhatsAppSender(workspaceId);
    fakeGraph().handle(() => graphError(2388299, "Variables can't be at the start or end of the template.", 400));
    try {
      await expect(submitTemplate(db, workspaceId, definition({ name: "refused_one" }), SYSTEM_ACTOR)).rejects.toMatchObject({
        status: 422,
        code: "template_refused",
        detail: expect.stringContaining("start or end"),
      });
    } finally {
      const { defaultGraphHandler } = await import("@/lib/channels/whatsapp/testing");
      fakeGraph().handle(defaultGraphHandler);
    }
    expect(await db.select().from(templates).where(and(eq(templates.workspaceId, workspaceId), eq(templates.name, "refused_one")))).toEqual([]);
  });

  it("applies message_template_status_update deliveries: rejected with a reason, paused, approved again; other accounts untouched", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const sender = await connectTestWhatsAppSender(workspaceId);
    const other = await createTestAccount();
    const otherSender = await connectTestWhatsAppSender(other.workspaceId);
    const submitted = await submitTemplate(db, workspaceId, definition(), SYSTEM_ACTOR);
    const theirs = await submitTemplate(db, other.workspaceId, definition(), SYSTEM_ACTOR);
    const [row] = await db.select().from(templates).where(eq(templates.id, submitted.id));
    const [theirRow] = await db.select().from(templates).where(eq(templates.id, theirs.id));

    async function deliver(value: Record<string, unknown>, secret = sender.appSecret, waba = sender.wabaId) {
      const raw = JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: waba, time: 1, changes: [{ field: "message_template_status_update", value }] }] });
      const signature = getChannel("whatsapp").webhook!.sign(raw, secret);
      const response = await webhookPost(
        new Request("http://localhost/api/webhooks/whatsapp", { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": signature }, body: raw }),
        { params: Promise.resolve({}) },
      );
      expect(response.status).toBe(200);
    }
    const statusOf = async (id: string) => (await db.select().from(templates).where(eq(templates.id, id)))[0]!;

    await deliver({ event: "REJECTED", message_template_id: Number(row!.externalId), message_template_name: "winter_sale", message_template_language: "en_US", reason: "INCORRECT_CATEGORY" });
    expect(await statusOf(submitted.id)).toMatchObject({ status: "REJECTED", statusReason: expect.stringContaining("category") });
    await deliver({
      event: "PAUSED",
      message_template_id: Number(row!.externalId),
      message_template_name: "winter_sale",
      message_template_language: "en_US",
      reason: "NONE",
      other_info: { title: "FIRST_PAUSE", description: "Your template has been paused for 3 hours due to low quality." },
    });
    expect(await statusOf(submitted.id)).toMatchObject({ status: "PAUSED", statusReason: expect.stringContaining("paused for 3 hours") });
    await deliver({ event: "APPROVED", message_template_id: Number(row!.externalId), message_template_name: "winter_sale", message_template_language: "en_US", reason: "NONE" });
    expect(await statusOf(submitted.id)).toMatchObject({ status: "APPROVED", statusReason: null });
    // The same template id in another account, signed with this workspace's secret: ignored there.
    await deliver({ event: "DISABLED", message_template_id: Number(theirRow!.externalId), message_template_name: "winter_sale", message_template_language: "en_US" });
    expect((await statusOf(theirs.id)).status).toBe("PENDING");
    await deliver({ event: "DISABLED", message_template_id: Number(theirRow!.externalId), message_template_name: "winter_sale", message_template_language: "en_US" }, otherSender.appSecret, otherSender.wabaId);
    expect((await statusOf(theirs.id)).status).toBe("DISABLED");
    expect((await statusOf(submitted.id)).status).toBe("APPROVED");
  });
});
