// The plan of the trigger context statement (lib/trigger/service.ts).
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { contacts } from "@/db/schema";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { triggerContextSql } from "./context";
import { keyBucket } from "./rate-limit";

describe("query plan", () => {
  // Both plans Postgres may run: the custom plan of the first runs of a prepared statement (values
  // known) and the generic plan it caches after the fifth (workspace and phones unknown).
  // With leases to claim (a write) and without (most requests: a read).
  it.each([
    ["custom", true],
    ["generic", true],
    ["custom", false],
    ["generic", false],
  ] as const)(
    "finds the requested phones' contacts by index probes, never by reading the workspace's contacts (%s plan, leases claimed: %s)",
    async (mode, claiming) => {
      const db = await getDb();
      const fx = await createTriggerFixture();
      await db.insert(contacts).values(
        Array.from({ length: 2000 }, (_, i) => ({ id: `ctc_plan_${mode}_${claiming}_${i}`, workspaceId: fx.workspaceId, phoneNumber: `+4479112${String(i).padStart(5, "0")}` })),
      );
      await db.execute(sql`analyze contacts`);
      const query = triggerContextSql({
        workspaceId: fx.workspaceId,
        campaignId: fx.campaignId,
        keyLease: claiming ? { bucket: keyBucket(fx.apiKeyId), take: 24 } : null,
        campaignLease: claiming,
        phones: ["+447911200007", "+447911200008"],
        idempotencyKey: null,
      });
      const plan = await db.transaction(async (tx) => {
        // A sequential scan of a small test table is cheap enough to win; what matters is which index serves.
        await tx.execute(sql`set local enable_seqscan = off`);
        return explainJson(tx, query, mode);
      });
      const contactScans = planNodes(plan).filter((node) => node["Relation Name"] === "contacts");
      expect(contactScans.length).toBeGreaterThan(0);
      for (const scan of contactScans) {
        expect(scan["Node Type"]).toBe("Index Scan");
        expect(scan["Index Name"]).toBe("contacts_workspace_phone_idx");
        expect(scan["Index Cond"]).toMatch(/phone_number = /);
      }
      // "Does the workspace have journeys?" probes the index of journey campaigns only.
      const campaignIndexes = planNodes(plan).filter((node) => node["Relation Name"] === "campaigns").map((node) => node["Index Name"]);
      expect(campaignIndexes).toContain("campaigns_workspace_journeys_idx");
      expect(campaignIndexes).not.toContain("campaigns_workspace_idx");
    },
  );
});

/** The plan of `query` as Postgres runs it: with its values (custom) or as a cached prepared statement (generic). */
async function explainJson(tx: Pick<DB, "execute">, query: SQL, mode: "custom" | "generic"): Promise<PlanNode> {
  const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
  let result: unknown;
  if (mode === "custom") {
    result = await tx.execute(sql`explain (format json) ${query}`);
  } else {
    const { sql: text, params } = new PgDialect().sqlToQuery(query);
    const literal = (value: unknown) => (value === null ? "null" : `'${String(value).replace(/'/g, "''")}'`);
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare context_plan_probe as ${text}`));
    result = await tx.execute(sql.raw(`explain (format json) execute context_plan_probe(${params.map(literal).join(", ")})`));
    await tx.execute(sql.raw("deallocate context_plan_probe"));
  }
  const value = Object.values(rowsOf(result)[0]!)[0];
  return ((typeof value === "string" ? JSON.parse(value) : value) as { Plan: PlanNode }[])[0]!.Plan;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}
