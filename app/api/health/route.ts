import { sql } from "drizzle-orm";
import { getDb, isEmbedded } from "@/db";
import { json, withPublic } from "@/lib/routing/route";
import { describeError } from "@/lib/logging";

export const GET = withPublic(async () => {
  const started = performance.now();
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
  } catch (error) {
    console.error(`Health check: database unreachable: ${describeError(error)}`);
    return json({ status: "unavailable", database: "unreachable" }, { status: 503, headers: { "Retry-After": "5", "Cache-Control": "no-store" } });
  }
  return json(
    { status: "ok", database: isEmbedded() ? "embedded" : "postgres", latencyMs: Math.round(performance.now() - started) },
    { headers: { "Cache-Control": "no-store" } },
  );
});
