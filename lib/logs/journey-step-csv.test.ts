// The CSV export's last column names the journey step that sent each message, on both export paths.
import Papa from "papaparse";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages, templates } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createApiAccount } from "@/lib/testing/api-factories";
import { insertRun, publishJourney, reminderJourney } from "@/lib/testing/journey-seeds";
import { insertMessageRows } from "@/lib/testing/logs-factories";
import { createTriggerCampaign } from "@/lib/testing/trigger-factories";
import { LOG_CSV_COLUMNS, logsCsvStream, papaparseCsvStream } from "./csv";
import { copyStatement } from "./csv-copy";

const onPostgres = Boolean(process.env.DATABASE_URL);

describe("the journey_step column", () => {
  it("is the last column: the step id with its name from the run's version, empty for other messages", async () => {
    const account = await createApiAccount();
    const db = await getDb();
    const templateId = newId("tpl");
    await db.insert(templates).values({ id: templateId, workspaceId: account.workspaceId, name: "cart", language: "en_US", category: "MARKETING", status: "APPROVED", parameterFormat: "POSITIONAL", components: [] });
    const campaignId = await createTriggerCampaign(account.workspaceId, templateId);
    await publishJourney(campaignId, reminderJourney(templateId));
    const run = await insertRun(account.workspaceId, campaignId, { status: "waiting", stepId: "pause" });
    const [fromStep, orphan, classic] = await insertMessageRows(account.workspaceId, campaignId, [
      { createdAt: new Date("2026-11-20T12:00:00Z") },
      { createdAt: new Date("2026-11-20T11:00:00Z") },
      { createdAt: new Date("2026-11-20T10:00:00Z") },
    ]);
    await db.update(messages).set({ journeyRunId: run.id, journeyStepId: "remind" }).where(eq(messages.id, fromStep!.id));
    // A run pruned since: the step id alone.
    await db.update(messages).set({ journeyRunId: "run_gone", journeyStepId: "again" }).where(eq(messages.id, orphan!.id));

    const scope = { workspaceId: account.workspaceId, campaignId };
    const text = await new Response(await logsCsvStream(db, scope, {}, { attributeKeys: ["name"] })).text();
    const [header, ...rows] = Papa.parse<string[]>(text.trimEnd()).data;
    expect(header).toEqual([...LOG_CSV_COLUMNS, "attributes.name", "journey_step"]);
    expect(rows.map((row) => [row[1], row.at(-1)])).toEqual([
      [fromStep!.id, "remind (Reminder)"],
      [orphan!.id, "again"],
      [classic!.id, ""],
    ]);
    expect(text).toContain(',"remind (Reminder)"\r\n');

    // Both paths write the same bytes.
    const papaparse = await new Response(await papaparseCsvStream(db, scope, {}, { attributeKeys: ["name"] })).text();
    if (onPostgres) expect(text).toBe(papaparse);
    else {
      const client = (db as unknown as { $client: { query(text: string): Promise<{ blob?: Blob }> } }).$client;
      const copied = await (await client.query(copyStatement(scope, {}, ["name"], "'/dev/blob'"))).blob!.text();
      expect(copied.replace(/\n/g, "\r\n").replace(/\r\r\n/g, "\r\n")).toBe(papaparse);
    }
  });
});

describe("the step filter", () => {
  it("selects the messages one journey step sent, and nothing else", async () => {
    const account = await createApiAccount();
    const db = await getDb();
    const campaignId = await createTriggerCampaign(account.workspaceId, null as unknown as string);
    const [a, b] = await insertMessageRows(account.workspaceId, campaignId, [{}, {}]);
    await db.update(messages).set({ journeyRunId: "run_x", journeyStepId: "remind" }).where(eq(messages.id, a!.id));
    await db.update(messages).set({ journeyRunId: "run_x", journeyStepId: "again" }).where(eq(messages.id, b!.id));
    const { listLogMessages } = await import("./query");
    const { parseLogListParams } = await import("./filters");
    const page = await listLogMessages(db, { workspaceId: account.workspaceId, campaignId }, parseLogListParams({ step: "remind" }));
    expect(page.data.map((m) => [m.id, "journeyStep" in m ? m.journeyStep : null])).toEqual([[a!.id, { runId: "run_x", stepId: "remind" }]]);
    expect(() => parseLogListParams({ step: "Not A Step" })).toThrow();
  });
});
