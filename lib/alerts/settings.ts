// A workspace's alert settings: thresholds, email to owners, an optional Slack-compatible webhook.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { alertSettings } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secrets";
import { assertStorableUrl } from "@/lib/http/public-address";
import { alertSettingsInputSchema, type AlertSettingsView } from "./schemas";

export interface AlertSettings {
  failureRatePercent: number;
  minMessages: number;
  emailOwners: boolean;
  slackWebhookUrl: string | null;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { failureRatePercent: 20, minMessages: 20, emailOwners: true, slackWebhookUrl: null };

/** The settings of each workspace asked for; workspaces without a row get the defaults. */
export async function loadAlertSettings(db: Executor, workspaceIds: string[]): Promise<Map<string, AlertSettings>> {
  const result = new Map(workspaceIds.map((id) => [id, { ...DEFAULT_ALERT_SETTINGS }]));
  if (workspaceIds.length === 0) return result;
  const rows = await db.select().from(alertSettings).where(sql`${alertSettings.workspaceId} in (${sql.join(workspaceIds.map((id) => sql`${id}`), sql`, `)})`);
  for (const row of rows) {
    result.set(row.workspaceId, {
      failureRatePercent: row.failureRatePercent,
      minMessages: row.minMessages,
      emailOwners: row.emailOwners,
      slackWebhookUrl: row.slackWebhookEncrypted ? decryptSecret(row.slackWebhookEncrypted) : null,
    });
  }
  return result;
}

/** `hooks.slack.com/…/X7q2`: enough to recognise the URL, not enough to post to it. */
export function maskWebhookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}/…${url.slice(-4)}`;
  } catch {
    return `…${url.slice(-4)}`;
  }
}

function toView(settings: AlertSettings): AlertSettingsView {
  return {
    failureRatePercent: settings.failureRatePercent,
    minMessages: settings.minMessages,
    emailOwners: settings.emailOwners,
    slackWebhook: settings.slackWebhookUrl ? maskWebhookUrl(settings.slackWebhookUrl) : null,
  };
}

export async function getAlertSettings(db: Executor, workspaceId: string): Promise<AlertSettingsView> {
  return toView((await loadAlertSettings(db, [workspaceId])).get(workspaceId)!);
}

export async function updateAlertSettings(db: Executor, workspaceId: string, actor: AuditActor, input: unknown): Promise<AlertSettingsView> {
  const { slackWebhookUrl, ...thresholds } = alertSettingsInputSchema.parse(input);
  if (slackWebhookUrl) await assertStorableUrl(slackWebhookUrl, "slackWebhookUrl");
  const slack = slackWebhookUrl === undefined ? {} : { slackWebhookEncrypted: slackWebhookUrl ? encryptSecret(slackWebhookUrl) : null };
  await db.transaction(async (tx) => {
    await tx
      .insert(alertSettings)
      .values({ workspaceId, ...thresholds, ...slack })
      .onConflictDoUpdate({ target: alertSettings.workspaceId, set: { ...thresholds, ...slack, updatedAt: sql`now()` } });
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "alerts.settings_changed",
      targetType: "workspace",
      targetId: workspaceId,
      metadata: { ...thresholds, slackWebhook: slackWebhookUrl === undefined ? "unchanged" : slackWebhookUrl ? "set" : "removed" },
    });
  });
  return getAlertSettings(db, workspaceId);
}

