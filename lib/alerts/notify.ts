// Telling the owners about a new notice: an email to each owner (when the workspace keeps that on)
// and one post to the Slack-compatible incoming webhook (when one is set). Best effort, once: what
// went out or went wrong is recorded on the notice, which stays in the app either way.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { postJson } from "@/lib/http/post-json";
import { appUrl } from "@/lib/env";
import { describeError } from "@/lib/logging";
import { sendMail, type MailTransport } from "@/lib/mail";
import type { OpenedNotice } from "./evaluate";
import type { AlertSettings } from "./settings";

export interface NotifyDeps {
  mail?: MailTransport;
  allowPrivate?: boolean;
}

async function ownerEmails(db: Executor, workspaceId: string): Promise<string[]> {
  const rows = await queryRows<{ email: string }>(
    db,
    sql`select u.email from memberships m join users u on u.id = m.user_id where m.workspace_id = ${workspaceId} and m.role = 'owner' order by u.email`,
  );
  return rows.map((row) => row.email);
}

export async function notifyOwners(db: Executor, notice: OpenedNotice, settings: AlertSettings, deps: NotifyDeps = {}): Promise<void> {
  const link = `${appUrl(undefined)}${notice.href}`; // Sent from a job: no request to take an origin from.
  const problems: string[] = [];
  let emailed = false;
  let posted = false;
  if (settings.emailOwners) {
    for (const to of await ownerEmails(db, notice.workspaceId)) {
      try {
        await sendMail({ to, subject: `Sendstream alert: ${notice.title}`, text: `${notice.title}\n\n${notice.detail}\n\nOpen: ${link}\n\nChange alerts in Settings → Alerts.` }, deps.mail);
        emailed = true;
      } catch (error) {
        problems.push(`email to ${to}: ${describeError(error)}`);
      }
    }
  }
  if (settings.slackWebhookUrl) {
    try {
      const result = await postJson(
        settings.slackWebhookUrl,
        { "content-type": "application/json", "user-agent": "Sendstream-Alerts/1.0" },
        JSON.stringify({ text: `*${notice.title}*\n${notice.detail}\n<${link}|Open in Sendstream>` }),
        { allowPrivate: deps.allowPrivate },
      );
      if (result.status >= 200 && result.status < 300) posted = true;
      else problems.push(`Slack webhook answered ${result.status}`);
    } catch (error) {
      problems.push(`Slack webhook: ${describeError(error)}`);
    }
  }
  await db.execute(sql`
    update notices set
      emailed_at = case when ${emailed} then now() else emailed_at end,
      slack_posted_at = case when ${posted} then now() else slack_posted_at end,
      notify_error = ${problems.length > 0 ? problems.join("; ").slice(0, 1000) : null}
    where id = ${notice.id}`);
}
