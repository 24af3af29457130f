// Alert evaluation, run by the dispatch machinery about every 30 s: which campaigns fail too often
// and which senders keep failing. A condition that starts holding opens a notice (one per subject;
// the owners are emailed and the Slack-compatible webhook posted once); one that stops holding
// resolves it. Only workspaces with recent failures, retrying messages or open notices are looked at.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { newId } from "@/lib/crypto/random";
import { describeError } from "@/lib/logging";
import { bannerFromHealth, sendersWithHealth } from "@/lib/senders/banner";
import { notifyOwners, type NotifyDeps } from "./notify";
import { ALERT_WINDOW_MINUTES } from "./schemas";
import { loadAlertSettings, type AlertSettings } from "./settings";
import type { NoticeKind } from "@/db/schema";

export interface OpenedNotice {
  id: string;
  workspaceId: string;
  kind: NoticeKind;
  subjectId: string;
  title: string;
  detail: string;
  href: string;
}

export interface AlertPassSummary {
  opened: OpenedNotice[];
  resolved: number;
}

interface CampaignRate {
  campaign_id: string;
  name: string;
  failed: number;
  sent: number;
}

/** The condition of one subject: a notice to keep open (title and detail), or null when fine. */
type Condition = { kind: NoticeKind; subjectId: string; title: string; detail: string; href: string };

const percent = (part: number, whole: number) => Math.round((part / whole) * 100);

/** The kinds this evaluation opens and closes (a switched-off webhook endpoint's notice closes when it is switched on). */
const EVALUATED_KINDS: NoticeKind[] = ["campaign_failure_rate", "sender_failing"];

/** Workspaces worth a look: failures in the window, messages retrying after an error, open notices. */
async function workspacesToCheck(db: Executor, only: string[] | undefined): Promise<string[]> {
  const scope = only ? sql`and workspace_id in (${sql.join(only.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const rows = await queryRows<{ workspace_id: string }>(
    db,
    sql`select workspace_id from messages
          where status = 'failed' and failed_at >= now() - make_interval(mins => ${ALERT_WINDOW_MINUTES}) ${scope}
        union
        select workspace_id from messages
          where status in ('queued', 'sending') and source <> 'bulk' and error_code is not null and attempts > 0 ${scope}
        union
        select workspace_id from notices where resolved_at is null and kind in (${sql.join(EVALUATED_KINDS.map((k) => sql`${k}`), sql`, `)}) ${scope}`,
  );
  return rows.map((row) => row.workspace_id);
}

/** Outcomes per campaign in the window: failures, and sends through the workspace's current senders. */
async function campaignRates(db: Executor, workspaceId: string): Promise<CampaignRate[]> {
  return queryRows<CampaignRate>(
    db,
    sql`select m.campaign_id, c.name,
          count(*) filter (where m.status = 'failed')::int as failed,
          count(*) filter (where m.status <> 'failed')::int as sent
        from messages m join campaigns c on c.id = m.campaign_id
        where m.workspace_id = ${workspaceId} and m.source <> 'test'
          and ((m.status = 'failed' and m.failed_at >= now() - make_interval(mins => ${ALERT_WINDOW_MINUTES}))
            or (m.sender_id in (select s.id from senders s where s.workspace_id = ${workspaceId}) and m.sent_at >= now() - make_interval(mins => ${ALERT_WINDOW_MINUTES})))
        group by m.campaign_id, c.name`,
  );
}

async function conditionsOf(db: Executor, workspaceId: string, settings: AlertSettings): Promise<Condition[]> {
  const senders = await sendersWithHealth(db, workspaceId);
  const conditions: Condition[] = [];
  for (const { sender, health } of senders) {
    const banner = bannerFromHealth(health, sender);
    if (!banner) continue;
    conditions.push({
      kind: "sender_failing",
      subjectId: health.senderId,
      title: senders.length > 1 ? `${banner.title} (${sender.name})` : banner.title,
      detail: `The last sends failed${banner.reason ? `: ${banner.reason}` : ""}. ${banner.pendingMessages.toLocaleString("en")} messages wait for the sender.`,
      href: banner.href,
    });
  }
  for (const rate of await campaignRates(db, workspaceId)) {
    const outcomes = rate.failed + rate.sent;
    if (outcomes < settings.minMessages || percent(rate.failed, outcomes) < settings.failureRatePercent) continue;
    conditions.push({
      kind: "campaign_failure_rate",
      subjectId: rate.campaign_id,
      title: `${percent(rate.failed, outcomes)} % of “${rate.name}” failed in the last ${ALERT_WINDOW_MINUTES} minutes`,
      detail: `${rate.failed.toLocaleString("en")} of ${outcomes.toLocaleString("en")} messages failed (the alert threshold is ${settings.failureRatePercent} % of at least ${settings.minMessages}).`,
      href: `/campaigns/${rate.campaign_id}/logs?status=failed`,
    });
  }
  return conditions;
}

/** One evaluation of every workspace that may need a notice opened or resolved. */
export async function evaluateAlerts(db: Executor, options: { workspaceIds?: string[]; notify?: NotifyDeps } = {}): Promise<AlertPassSummary> {
  const summary: AlertPassSummary = { opened: [], resolved: 0 };
  const workspaceIds = await workspacesToCheck(db, options.workspaceIds);
  const settings = await loadAlertSettings(db, workspaceIds);
  for (const workspaceId of workspaceIds) {
    try {
      const conditions = await conditionsOf(db, workspaceId, settings.get(workspaceId)!);
      const holding = conditions.map((c) => sql`${`${c.kind}:${c.subjectId}`}`);
      const stillHolding = holding.length > 0 ? sql`and not (kind || ':' || subject_id in (${sql.join(holding, sql`, `)}))` : sql``;
      const resolved = await queryRows<{ id: string }>(
        db,
        sql`update notices set resolved_at = now()
            where workspace_id = ${workspaceId} and resolved_at is null and kind in (${sql.join(EVALUATED_KINDS.map((k) => sql`${k}`), sql`, `)}) ${stillHolding}
            returning id`,
      );
      summary.resolved += resolved.length;
      for (const condition of conditions) {
        const [opened] = await queryRows<{ id: string }>(
          db,
          sql`insert into notices (id, workspace_id, kind, subject_id, title, detail, href)
              values (${newId("ntc")}, ${workspaceId}, ${condition.kind}, ${condition.subjectId}, ${condition.title}, ${condition.detail}, ${condition.href})
              on conflict (workspace_id, kind, subject_id) where resolved_at is null
              do update set title = excluded.title, detail = excluded.detail
              returning id, (xmax = 0) as inserted`,
        );
        const inserted = (opened as { inserted?: boolean } | undefined)?.inserted;
        if (!opened || !inserted) continue;
        const notice: OpenedNotice = { id: opened.id, workspaceId, ...condition };
        summary.opened.push(notice);
        await notifyOwners(db, notice, settings.get(workspaceId)!, options.notify);
      }
    } catch (error) {
      console.error(`[alerts] evaluating workspace ${workspaceId} failed: ${describeError(error)}`);
    }
  }
  return summary;
}
