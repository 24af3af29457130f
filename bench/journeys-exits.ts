// Part (b) of `npm run bench:journeys`: exit events at a fixed rate while the runs they end are due
// to send, then a check in the database that nothing of an exited run was created or sent after its
// exit was accepted.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { latencySummary, openLoop, percentile, round, seedRuns } from "./journeys-support";
import { sleep } from "./trigger-support";

export interface ExitsInput {
  db: Executor;
  workspaceId: string;
  /** A journey (send → wait → end) exiting on `event`, its contacts `ctc_jb<n>` (+49152…) seeded. */
  campaignId: string;
  event: string;
  runs: number;
  exits: number;
  rate: number;
  leadSeconds: number;
  /** How long the runner and the dispatcher get to finish before the check. */
  settleSeconds: number;
}

interface Check {
  accepted: number;
  exited: number;
  created_after: number;
  sent_after: number;
  left_queued: number;
  sent_before: number;
  skipped: number;
  others: number;
  others_sent: number;
}

/** Runs part (b); returns its paragraph of the results. */
export async function measureExits(input: ExitsInput): Promise<string> {
  const { db } = input;
  const burstSeconds = input.exits / input.rate;
  console.log(`(b) ${input.runs} runs due over ${burstSeconds} s; ${input.exits} exit events at ${input.rate}/s through ingestEvent …`);
  const burstFrom = new Date(Date.now() + input.leadSeconds * 1000);
  await seedRuns(db, {
    workspaceId: input.workspaceId,
    campaignId: input.campaignId,
    prefix: "jrb_",
    contactPrefix: "ctc_jb",
    dial: "49152",
    count: input.runs,
    stepId: "send",
    exitTokens: [`event:${input.event}`],
    from: burstFrom,
    windowSeconds: burstSeconds,
  });
  await db.execute(sql`analyze journey_runs`);
  // A random subset of the runs in random order: some exit before their send is due, some after.
  const order = Array.from({ length: input.runs }, (_, i) => i + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const chosen = order.slice(0, input.exits);
  const acceptedAt: (number | null)[] = new Array(input.exits).fill(null);
  const { ingestEvent } = await import("@/lib/journeys/events");
  await sleep(Math.max(0, burstFrom.getTime() - Date.now()));
  const result = await openLoop(input.rate, input.exits, async (i) => {
    const n = chosen[i]!;
    await ingestEvent(db, { workspaceId: input.workspaceId, name: input.event, phone: `+49152${String(n).padStart(8, "0")}`, properties: { order: `ORD-${n}` } });
    // After the commit: the moment the caller is told the event was taken.
    acceptedAt[i] = Date.now();
    return true;
  });
  console.log(`    ${latencySummary(result)}, ${round(result.achievedRate)} events/s`);
  await sleep(input.settleSeconds * 1000);

  await db.execute(sql`create table bench_exit_accepted (run_id text primary key, accepted_at timestamptz not null)`);
  const accepted = chosen.flatMap((n, i) => (acceptedAt[i] === null ? [] : [{ id: `jrb_${n}`, at: new Date(acceptedAt[i]!).toISOString() }]));
  for (let from = 0; from < accepted.length; from += 5_000) {
    const slice = accepted.slice(from, from + 5_000);
    await db.execute(sql`insert into bench_exit_accepted select * from unnest(${`{${slice.map((a) => a.id).join(",")}}`}::text[], ${`{${slice.map((a) => a.at).join(",")}}`}::timestamptz[])`);
  }
  const [check] = await queryRows<Check>(
    db,
    sql`with m as (select e.run_id, e.accepted_at, m.status, m.created_at, m.sent_at from bench_exit_accepted e join messages m on m.journey_run_id = e.run_id)
      select (select count(*)::int from bench_exit_accepted) as accepted,
        (select count(*)::int from bench_exit_accepted e join journey_runs r on r.id = e.run_id where r.status = 'exited') as exited,
        (select count(*)::int from m where created_at > accepted_at) as created_after,
        (select count(*)::int from m where sent_at > accepted_at) as sent_after,
        (select count(*)::int from m where status in ('queued', 'sending')) as left_queued,
        (select count(*)::int from m where sent_at <= accepted_at) as sent_before,
        (select count(*)::int from m where status = 'skipped') as skipped,
        (select count(*)::int from journey_runs r where r.campaign_id = ${input.campaignId} and r.id not in (select run_id from bench_exit_accepted)) as others,
        (select count(*)::int from messages x where x.campaign_id = ${input.campaignId} and x.sent_at is not null
          and x.journey_run_id not in (select run_id from bench_exit_accepted)) as others_sent`,
  );
  const c = check!;
  const violations = c.accepted - c.exited + c.created_after + c.sent_after + c.left_queued;
  console.log(`    ${JSON.stringify(c)}; violations ${violations}`);
  const ms = (p: number) => round(percentile(result.latencies, p));
  return `(b) **Exits**: ${input.runs.toLocaleString("en-US")} runs (send → wait a day → end, exit event \`${input.event}\`) due uniformly over the ${burstSeconds} s burst; ${input.exits.toLocaleString("en-US")} exit
events, one for each of a random subset of the runs in random order, sent at ${input.rate}/s open loop through \`ingestEvent\` called in the bench's process (what \`POST /api/v1/events\` runs; up to ${
    process.env.DATABASE_POOL_MAX ?? 10
  } at once, the pool's connections) while the engine executed the sends. Achieved **${round(result.achievedRate, 0)} events/s**; acceptance latency (from each event's scheduled time to its commit) p50 ${ms(50)} ms, p99 **${ms(99)} ms**, max ${ms(100)} ms; ${result.failed} failed${result.firstError ? ` (first: ${result.firstError})` : ""}.
Checked in the database ${input.settleSeconds} s later: ${c.accepted} exits accepted, ${c.exited} of their runs \`exited\`; their messages: ${c.sent_before} sent before the exit was accepted, ${c.skipped} skipped,
**${c.created_after} created after it, ${c.sent_after} sent after it, ${c.left_queued} still queued or sending** — ${violations} violations (target 0): **${violations === 0 ? "met" : "MISSED"}**. The ${c.others} runs without an exit event: ${c.others_sent} messages sent.`;
}
