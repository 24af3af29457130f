// A journey's numbers, exact, from its runs and their history (test runs left out): per step how many
// runs entered it, are at it now, went on from it, exited or failed there and what it sent; and the
// totals with the conversion goal's rate and median time to convert. The builder shows the step
// numbers on its nodes, the campaign page the totals.
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { campaigns } from "@/db/schema";
import { parseStoredJourney } from "@/lib/campaigns/journey";
import { notFound } from "@/lib/http/errors";

export interface JourneyStepStats {
  stepId: string;
  /** Runs with a history row for the step or at it now. */
  entered: number;
  /** Runs at the step now (its time not come yet, or waiting for an event). */
  waiting: number;
  /** Runs that went on from the step (any outcome but exited, ended, failed). */
  completed: number;
  /** Runs an exit event ended while at the step. */
  exited: number;
  failed: number;
  /** Messages the step queued. */
  sent: number;
}

export interface JourneyTotals {
  entered: number;
  active: number;
  waiting: number;
  completed: number;
  exited: number;
  ended: number;
  failed: number;
  /** Runs that reached the journey's goal. */
  converted: number;
  /** `converted / entered`, 0 to 1 (0 with no runs), four decimals. */
  conversionRate: number;
  /** From entering to converting, whole seconds; null with no conversion. */
  medianSecondsToConvert: number | null;
}

export interface JourneyStats {
  /** The journey version new runs enter (0: no journey published). */
  version: number;
  /** The published journey's steps in its order, then any other step its runs took (older versions). */
  steps: JourneyStepStats[];
  totals: JourneyTotals;
}

type Counts = Record<string, string | number | null>;
const n = (value: unknown) => Number(value ?? 0);

const emptyStep = (stepId: string): JourneyStepStats => ({ stepId, entered: 0, waiting: 0, completed: 0, exited: 0, failed: 0, sent: 0 });

export async function journeyStats(db: Executor, workspaceId: string, campaignId: string): Promise<JourneyStats> {
  const [campaign] = await db
    .select({ journey: campaigns.journey, version: campaigns.journeyVersion })
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.id, campaignId)))
    .limit(1);
  if (!campaign) throw notFound("No campaign with this id exists in your workspace.");

  const [history, atStep, [totals]] = await Promise.all([
    queryRows<Counts>(
      db,
      sql`select s.step_id,
          count(distinct s.run_id) as visited,
          count(distinct s.run_id) filter (where s.outcome not in ('exited', 'ended', 'failed')) as completed,
          count(distinct s.run_id) filter (where s.outcome = 'exited') as exited,
          count(distinct s.run_id) filter (where s.outcome = 'failed') as failed,
          count(*) filter (where s.outcome = 'sent') as sent
        from journey_run_steps s
        join journey_runs r on r.id = s.run_id and r.entry <> 'test'
        where s.campaign_id = ${campaignId} and s.step_id <> ''
        group by s.step_id`,
    ),
    queryRows<Counts>(
      db,
      sql`select r.step_id,
          count(*) as waiting,
          count(*) filter (where not exists (select 1 from journey_run_steps s where s.run_id = r.id and s.step_id = r.step_id)) as first_time
        from journey_runs r
        where r.campaign_id = ${campaignId} and r.entry <> 'test' and r.status in ('active', 'waiting') and r.step_id is not null
        group by r.step_id`,
    ),
    queryRows<Counts>(
      db,
      sql`select count(*) as entered,
          count(*) filter (where status = 'active') as active,
          count(*) filter (where status = 'waiting') as waiting,
          count(*) filter (where status = 'completed') as completed,
          count(*) filter (where status = 'exited') as exited,
          count(*) filter (where status = 'ended') as ended,
          count(*) filter (where status = 'failed') as failed,
          count(converted_at) as converted,
          percentile_cont(0.5) within group (order by extract(epoch from converted_at - entered_at)) filter (where converted_at is not null) as median
        from journey_runs
        where campaign_id = ${campaignId} and entry <> 'test'`,
    ),
  ]);

  const steps = new Map<string, JourneyStepStats>();
  for (const step of parseStoredJourney(campaign.journey)?.steps ?? []) steps.set(step.id, emptyStep(step.id));
  const stepOf = (id: string) => steps.get(id) ?? steps.set(id, emptyStep(id)).get(id)!;
  for (const row of history) {
    const step = stepOf(String(row.step_id));
    Object.assign(step, { entered: n(row.visited), completed: n(row.completed), exited: n(row.exited), failed: n(row.failed), sent: n(row.sent) });
  }
  for (const row of atStep) {
    const step = stepOf(String(row.step_id));
    step.waiting = n(row.waiting);
    step.entered += n(row.first_time);
  }

  const entered = n(totals?.entered);
  const converted = n(totals?.converted);
  const median = totals?.median;
  return {
    version: campaign.version,
    steps: [...steps.values()],
    totals: {
      entered,
      active: n(totals?.active),
      waiting: n(totals?.waiting),
      completed: n(totals?.completed),
      exited: n(totals?.exited),
      ended: n(totals?.ended),
      failed: n(totals?.failed),
      converted,
      conversionRate: entered === 0 ? 0 : Math.round((converted / entered) * 10_000) / 10_000,
      medianSecondsToConvert: median === null || median === undefined ? null : Math.round(Number(median)),
    },
  };
}
