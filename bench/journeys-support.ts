// The journeys benchmark's pieces: journey campaigns and their runs seeded in bulk, an open-loop
// load (each request sent at its scheduled time whatever the previous ones do, its latency counted
// from that time), the engine as its own process (`npm run worker`), and percentiles.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { checkJourney, journeySchema, type JourneyInput } from "@/lib/campaigns/journey";
import { newId } from "@/lib/crypto/random";
import { ownProcess, signalTree, stopProcess } from "./processes";
import { ROOT, sleep } from "./trigger-support";

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** An approved template without variables: the send steps need no mapping. */
export async function createPlainTemplate(db: Executor, workspaceId: string): Promise<string> {
  const id = newId("tpl");
  await db.execute(sql`insert into templates (id, workspace_id, name, language, category, status, parameter_format, components)
    values (${id}, ${workspaceId}, 'cart_reminder', 'en_US', 'MARKETING', 'APPROVED', 'POSITIONAL',
      ${JSON.stringify([{ type: "BODY", text: "You left something in your cart." }])}::jsonb)`);
  return id;
}

/** Gives an (active) trigger campaign the journey as its live document and its version 1, as a deploy does. */
export async function deployJourney(db: Executor, campaignId: string, input: JourneyInput): Promise<void> {
  const journey = journeySchema.parse(input);
  const issues = checkJourney(journey, { mappedFields: [], campaignId });
  if (issues.length > 0) throw new Error(`The bench's journey is invalid: ${JSON.stringify(issues)}`);
  const document = JSON.stringify(journey);
  await db.execute(sql`update campaigns set journey = ${document}::jsonb, journey_version = 1, status = 'active', deployed_at = now() where id = ${campaignId}`);
  await db.execute(sql`insert into journey_versions (campaign_id, version, document) values (${campaignId}, 1, ${document}::jsonb)`);
}

/** `count` subscribed contacts `<prefix><n>` with phones `+<dial><n, 8 digits>` (dial 49151: German mobiles, valid), n = 1…count. */
export async function seedContacts(db: Executor, workspaceId: string, prefix: string, dial: string, count: number): Promise<void> {
  await db.execute(sql`insert into contacts (id, workspace_id, phone_number, name, consent_status)
    select ${prefix} || i, ${workspaceId}, ${`+${dial}`} || lpad(i::text, 8, '0'), 'Customer ' || i, 'subscribed'
    from generate_series(1, ${count}::int) i`);
}

/**
 * `count` runs `<prefix><n>` of the campaign's version 1 for the contacts `<contactPrefix><n>`,
 * `active` at `stepId`, due uniformly over `windowSeconds` from `from` (run n at from + (n-1)/count·window).
 */
export async function seedRuns(
  db: Executor,
  input: { workspaceId: string; campaignId: string; prefix: string; contactPrefix: string; dial: string; count: number; stepId: string; exitTokens: string[]; from: Date; windowSeconds: number },
): Promise<void> {
  await db.execute(sql`insert into journey_runs (id, workspace_id, campaign_id, version, contact_id, phone_number, status, step_id, due_at, exit_tokens, context, entry, entered_at)
    select ${input.prefix} || i, ${input.workspaceId}, ${input.campaignId}, 1, ${input.contactPrefix} || i, ${`+${input.dial}`} || lpad(i::text, 8, '0'),
      'active', ${input.stepId},
      ${input.from.toISOString()}::timestamptz + make_interval(secs => (i - 1) * ${input.windowSeconds}::float8 / ${input.count}::int),
      ${`{${input.exitTokens.map((t) => JSON.stringify(t)).join(",")}}`}::text[], '{}'::jsonb, 'trigger', now()
    from generate_series(1, ${input.count}::int) i`);
}

export interface OpenLoopResult {
  /** Milliseconds from each request's scheduled time to its answer, sorted. */
  latencies: number[];
  ok: number;
  failed: number;
  /** Requests answered per second over the run (first scheduled → last answered). */
  achievedRate: number;
  firstError: string | null;
  /** Of `failed`: requests that got no answer (a network error, a timeout). */
  errors: number;
}

/**
 * Sends `count` requests at `rate` per second, each at its scheduled time (open loop: a slow answer
 * never delays the next request). `send` resolves true when the request was accepted.
 */
export async function openLoop(rate: number, count: number, send: (i: number) => Promise<boolean>): Promise<OpenLoopResult> {
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  let firstError: string | null = null;
  let errors = 0;
  const start = performance.now();
  let lastAnswer = start;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const at = start + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      send(i).then(
        (accepted) => {
          lastAnswer = performance.now();
          latencies.push(lastAnswer - at);
          if (accepted) ok++;
          else failed++;
        },
        (error: unknown) => {
          lastAnswer = performance.now();
          failed++;
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
        },
      ),
    );
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return { latencies, ok, failed, achievedRate: (ok + failed) / Math.max(1e-3, (lastAnswer - start) / 1000), firstError, errors };
}

export function latencySummary(result: OpenLoopResult): string {
  const l = result.latencies;
  return `p50 ${round(percentile(l, 50))} ms, p99 ${round(percentile(l, 99))} ms, max ${round(l.at(-1) ?? 0)} ms (${result.ok} accepted, ${result.failed} refused or failed)`;
}

export interface Worker {
  pid: number;
  stop(): Promise<void>;
  log(): string;
}

/** `npm run worker` (lib/engine/worker-main.ts) on the database; resolves once its loop runs. */
export async function startWorker(env: Record<string, string>): Promise<Worker> {
  const child = ownProcess(
    spawn("node", ["node_modules/tsx/dist/cli.mjs", "lib/engine/worker-main.ts"], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(chunk.toString());
    if (lines.length > 400) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const deadline = Date.now() + 60_000;
  while (!lines.join("").includes("[worker] dispatching")) {
    if (child.exitCode !== null) throw new Error(`The worker exited:\n${lines.join("")}`);
    if (Date.now() > deadline) {
      signalTree(child, "SIGKILL");
      throw new Error(`The worker did not start:\n${lines.join("").slice(-4000)}`);
    }
    await sleep(100);
  }
  return { pid: child.pid!, stop: () => stopProcess(child), log: () => lines.join("") };
}

export interface Backlog {
  /** Runs of the campaign still `active` at the step (not executed, as far as committed work shows). */
  pending: number;
  /** Of those, the ones already due, and how long the oldest of them has been due (seconds; 0: none). */
  overdue: number;
  oldestSeconds: number;
  overdue2s: number;
}

/** What an observer sees of a campaign's runs at `stepId` right now: committed work only. */
export async function backlog(db: Executor, campaignId: string, stepId: string): Promise<Backlog> {
  const [row] = await queryRows<Backlog>(
    db,
    sql`select count(*)::int as pending, count(*) filter (where due_at <= clock_timestamp())::int as overdue,
        coalesce(extract(epoch from clock_timestamp() - min(due_at) filter (where due_at <= clock_timestamp())), 0)::float8 as "oldestSeconds",
        count(*) filter (where due_at <= clock_timestamp() - interval '2 seconds')::int as "overdue2s"
      from journey_runs where campaign_id = ${campaignId} and status = 'active' and step_id = ${stepId}`,
  );
  return row!;
}
