import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { seedDemoWorkspace } from "@/db/demo-workspace";
import { contacts, senders, templates } from "@/db/schema";
import { createTestAccount } from "@/lib/testing/factories";
import { ensureSandboxTemplates } from "@/lib/templates/service";
import { firstRunChecklist } from "./first-run";

const doneOf = async (workspaceId: string) =>
  Object.fromEntries((await firstRunChecklist(await getDb(), workspaceId)).steps.map((s) => [s.id, s.done]));

describe("firstRunChecklist", () => {
  it("checks each step from the workspace's data", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    // The demo templates a sandbox workspace starts with are not a template the user wrote.
    await ensureSandboxTemplates(db, account.workspaceId);
    expect(await doneOf(account.workspaceId)).toEqual({ sender: false, contacts: false, template: false, campaign: false });
    expect(await firstRunChecklist(db, account.workspaceId)).toMatchObject({ complete: false, sandboxOnly: true });

    await db.insert(contacts).values({ id: "ctc_first_run", workspaceId: account.workspaceId, phoneNumber: "+15125550100" });
    await db.insert(templates).values({
      id: "tpl_first_run",
      workspaceId: account.workspaceId,
      externalId: "sandbox:winter_sale",
      account: "sandbox",
      name: "winter_sale",
      language: "en_US",
      category: "MARKETING",
      status: "APPROVED",
      components: [],
    });
    expect(await doneOf(account.workspaceId)).toEqual({ sender: false, contacts: true, template: true, campaign: false });

    await db.insert(senders).values({ id: "snd_first_run", workspaceId: account.workspaceId, provider: "whatsapp", name: "Shop", isDefault: false, status: "untested" });
    expect(await doneOf(account.workspaceId)).toMatchObject({ sender: true });
    expect(await firstRunChecklist(db, account.workspaceId)).toMatchObject({ sandboxOnly: false });
    await db.delete(senders).where(eq(senders.id, "snd_first_run"));
  });

  it("counts the demo workspace's sandbox sends and campaign messages", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    await seedDemoWorkspace(db, { workspaceId: account.workspaceId, userId: account.id });
    expect(await doneOf(account.workspaceId)).toEqual({ sender: true, contacts: true, template: false, campaign: true });
  });
});
