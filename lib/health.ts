// Readiness of this server process, as /api/health answers it to load balancers, Docker and
// Kubernetes probes: can it reach its database, and (when it runs the job loop) is the loop alive?
// Either failing is worth a restart or taking the process out of rotation: 503.
import { sql } from "drizzle-orm";
import { getDb, isEmbedded } from "@/db";
import { jobsHealth, type JobsHealth } from "@/lib/jobs/health";
import { describeError } from "@/lib/logging";

export interface Health {
  /** `ok`; `degraded`: serving, but a job's last run failed; `unavailable`: the database is unreachable or the loop is stalled. */
  status: "ok" | "degraded" | "unavailable";
  database: "embedded" | "postgres" | "unreachable";
  /** How long `select 1` took (absent when the database is unreachable). */
  latencyMs?: number;
  jobs: JobsHealth;
}

export async function checkHealth(): Promise<Health> {
  const started = performance.now();
  let database: Health["database"];
  let latencyMs: number | undefined;
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    database = isEmbedded() ? "embedded" : "postgres";
    latencyMs = Math.round(performance.now() - started);
  } catch (error) {
    console.error(`Health check: database unreachable: ${describeError(error)}`);
    database = "unreachable";
  }
  const jobs = jobsHealth();
  if (jobs.stalled.length > 0) console.error(`Health check: job loop stalled: ${jobs.stalled.join(", ")}`);
  const status = database === "unreachable" || jobs.stalled.length > 0 ? "unavailable" : jobs.failing.length > 0 ? "degraded" : "ok";
  return { status, database, ...(latencyMs === undefined ? {} : { latencyMs }), jobs };
}
