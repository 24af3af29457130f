// Helpers of the reliability scenarios (bench/reliability.ts): the pass/fail report, dispatching
// processes of their own, WhatsApp workspaces and queued messages written directly, signed
// webhooks, and a Postgres restart.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { ownProcess } from "./processes";
import { ROOT, sleep } from "./trigger-support";

export class Report {
  readonly failures: string[] = [];
  readonly summary: string[] = [];
  passed = 0;

  note(line: string): void {
    console.log(`  ${line}`);
    this.summary.push(`- ${line}`);
  }

  check(ok: boolean, what: string): void {
    console.log(`${ok ? "✓" : "✗"} ${what}`);
    this.summary.push(`- ${ok ? "✓" : "✗"} ${what}`);
    if (ok) this.passed++;
    else this.failures.push(what);
  }

  section(title: string): void {
    console.log(`\n== ${title}`);
    this.summary.push(`\n**${title}**\n`);
  }

  write(file: string | undefined): void {
    if (file) fs.writeFileSync(file, JSON.stringify({ passed: this.passed, failed: this.failures.length, failures: this.failures }, null, 2));
  }
}

/** Most events in any window of `windowMs` (arrival times in ms). */
export function peakInWindow(times: number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= windowMs) from++;
    peak = Math.max(peak, to - from + 1);
  }
  return peak;
}

export interface DispatcherPass {
  pid: number;
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  deferred: number;
  unknown?: number;
}

export interface Dispatchers {
  passes: DispatcherPass[];
  /** SIGTERM (the dispatcher's own shutdown), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** `count` processes running bench/reliability-dispatcher.ts; resolves once each is ready. */
export async function startDispatchers(count: number, env: Record<string, string>): Promise<Dispatchers> {
  const passes: DispatcherPass[] = [];
  const children: ChildProcess[] = [];
  const ready = Array.from({ length: count }, () => {
    const child = ownProcess(
      spawn(process.execPath, ["--import", "tsx", "bench/reliability-dispatcher.ts"], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    children.push(child);
    let buffered = "";
    const errors: string[] = [];
    child.stderr!.on("data", (chunk: Buffer) => {
      errors.push(chunk.toString());
      if (errors.length > 50) errors.shift();
    });
    return new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        let newline: number;
        while ((newline = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          try {
            const parsed = JSON.parse(line) as DispatcherPass & { ready?: boolean };
            if (parsed.ready) resolve();
            else if (typeof parsed.claimed === "number") passes.push(parsed);
          } catch {
            // a log line
          }
        }
      });
      child.once("exit", (code) => reject(new Error(`a dispatcher exited (${code}) before it was ready:\n${errors.join("").slice(-3000)}`)));
    });
  });
  await Promise.all(ready);
  return {
    passes,
    async stop() {
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null) return;
          const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
          child.kill("SIGTERM");
          await Promise.race([exited, sleep(10_000).then(() => child.kill("SIGKILL"))]);
          await exited;
        }),
      );
    },
  };
}

export interface WhatsAppWorkspace {
  workspaceId: string;
  campaignId: string;
  senderId: string;
  apiKey: string;
  phoneNumberId: string;
  appSecret: string;
}

/** A trigger campaign whose workspace sends through the (fake) Cloud API at `throughput` messages/s. */
export async function createWhatsAppWorkspace(input: { phoneNumberId: string; throughput: number; appSecret?: string }): Promise<WhatsAppWorkspace> {
  const { getDb } = await import("@/db");
  const { senders } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const { encryptSecret } = await import("@/lib/crypto/secrets");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const db = await getDb();
  const fx = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  const appSecret = input.appSecret ?? `reliability-secret-${input.phoneNumberId}`;
  const [sender] = await db
    .update(senders)
    .set({
      provider: "whatsapp",
      phoneNumberId: input.phoneNumberId,
      wabaId: `waba${input.phoneNumberId}`,
      accessTokenEncrypted: encryptSecret("reliability-token"),
      appSecretEncrypted: encryptSecret(appSecret),
      throughputPerSecond: input.throughput,
    })
    .where(eq(senders.workspaceId, fx.workspaceId))
    .returning({ id: senders.id });
  return { workspaceId: fx.workspaceId, campaignId: fx.campaignId, senderId: sender!.id, apiKey: fx.apiKey, phoneNumberId: input.phoneNumberId, appSecret };
}

/** `count` trigger messages queued and due now for the workspace's sender; phone `<prefix><i>`; returns their ids. */
export async function queueMessages(db: Executor, ws: WhatsAppWorkspace, count: number, phonePrefix: string): Promise<string[]> {
  const idPrefix = `msg_rel_${phonePrefix.replace(/\D/g, "")}_`;
  await db.execute(sql`insert into messages (id, workspace_id, campaign_id, sender_id, source, phone_number, template_name, template_language, rendered_text, payload)
    select ${idPrefix} || g, ${ws.workspaceId}, ${ws.campaignId}, ${ws.senderId}, 'trigger', ${phonePrefix} || lpad(g::text, 5, '0'),
      'order_shipped', 'en_US', 'Reliability message',
      ${JSON.stringify({ template: { name: "order_shipped", language: { code: "en_US" }, components: [] } })}::jsonb
    from generate_series(0, ${count - 1}) g`);
  return Array.from({ length: count }, (_, i) => `${idPrefix}${i}`);
}

/** The `to` of a Graph send request, in E.164. */
export function recipientOf(body: unknown): string {
  const to = (body as { to?: unknown } | undefined)?.to;
  return typeof to === "string" ? (to.startsWith("+") ? to : `+${to}`) : "";
}

/** A delivery webhook body for `statuses` of the sender's number. */
export function statusWebhook(ws: Pick<WhatsAppWorkspace, "phoneNumberId">, statuses: { id: string; status: string; timestamp?: number }[]) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: `waba${ws.phoneNumberId}`,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550000000", phone_number_id: ws.phoneNumberId },
              statuses: statuses.map((s) => ({ recipient_id: "447911000000", ...s, timestamp: String(s.timestamp ?? Math.floor(Date.now() / 1000)) })),
            },
          },
        ],
      },
    ],
  };
}

/** The local cluster's version when `pg_ctlcluster` can restart it (Debian's postgresql-common, run as root). */
export function restartablePostgres(): string | null {
  const listed = spawnSync("pg_lsclusters", ["--no-header"], { encoding: "utf8" });
  if (listed.status !== 0) return null;
  const line = listed.stdout.split("\n").find((l) => /\bmain\b.*\b5432\b.*online/.test(l));
  if (!line || process.getuid?.() !== 0) return null;
  return line.trim().split(/\s+/)[0] ?? null;
}

/** Restarts the cluster (fast shutdown: open connections are cut); resolves when it accepts connections again. */
export function restartPostgres(version: string): { ok: boolean; output: string } {
  const result = spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "restart"], { encoding: "utf8", timeout: 60_000 });
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() };
}
