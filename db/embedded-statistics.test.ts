import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, isEmbedded } from "@/db";
import { queryRows } from "@/db/rows";
import { createTestAccount } from "@/lib/testing/factories";
import { refreshEmbeddedStatistics } from "./embedded-statistics";

describe("embedded database statistics", () => {
  it.skipIf(!isEmbedded())("are refreshed by the periodic analyze: the planner sees the contacts a workspace gained", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const estimate = async () =>
      (await queryRows<{ rows: number }>(db, sql`select reltuples::int as rows from pg_class where relname = 'contacts' and relkind = 'r'`))[0]!.rows;
    await db.execute(sql`analyze contacts`);
    const before = await estimate();
    await db.execute(sql`insert into contacts (id, workspace_id, phone_number) select 'ctc_stats_' || g, ${workspaceId}, '+3519100' || lpad(g::text, 5, '0') from generate_series(1, 3000) g`);
    // Nothing else analyses the embedded database: the estimate stays where it was.
    expect(await estimate()).toBe(before);
    expect(await refreshEmbeddedStatistics(db)).toMatchObject({ ms: expect.any(Number) });
    expect(await estimate()).toBe(before + 3000);
  });

  it.skipIf(isEmbedded())("are left to autovacuum on Postgres", async () => {
    expect(await refreshEmbeddedStatistics(await getDb())).toBeNull();
  });
});
