import { and, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getSettings, PUT as putSettings } from "@/app/api/alerts/settings/route";
import { POST as dismissRoute } from "@/app/api/alerts/notices/[id]/dismiss/route";
import { GET as activeRoute } from "@/app/api/alerts/notices/route";
import { getDb } from "@/db";
import { auditEvents, messages, notices } from "@/db/schema";
import type { Mail } from "@/lib/mail";
import { getSenderRow } from "@/lib/senders/service";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie, type ApiAccount } from "@/lib/testing/api-factories";
import { createTestMember } from "@/lib/testing/factories";
import { createTestCampaign, createTestMessage } from "@/lib/testing/messaging-factories";
import { allowPrivateWebhookUrlsInTests } from "@/lib/testing/private-webhook-urls";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { evaluateAlerts } from "./evaluate";
import { alertsEveryMs } from "./jobs";
import { listActiveNotices } from "./notices";
import type { AlertSettingsView, NoticeView } from "./schemas";

let account: ApiAccount;
let cookie: string;
let mail: Mail[];

const receiver = await startWebhookReceiver("/services/T000/B000/slack");
allowPrivateWebhookUrlsInTests();
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.reset();
  mail = [];
  account = await createApiAccount();
  cookie = await sessionCookie(account);
});

const asUser = (extra: { params?: Record<string, string>; body?: unknown } = {}) => ({ cookie, headers: SAME_ORIGIN, ...extra });
const evaluate = async () =>
  evaluateAlerts(await getDb(), { workspaceIds: [account.workspaceId], notify: { mail: async (m) => void mail.push(m), allowPrivate: true } });

/** `failed` failures and `sent` sends of one campaign, all within the last minutes. */
async function outcomes(campaignId: string, failed: number, sent: number, extra: { source?: "test" } = {}) {
  const db = await getDb();
  const sender = await getSenderRow(db, account.workspaceId);
  const ids: string[] = [];
  for (let i = 0; i < failed + sent; i++) ids.push(await createTestMessage({ workspaceId: account.workspaceId, campaignId }));
  for (const [i, id] of ids.entries()) {
    const failing = i < failed;
    await db
      .update(messages)
      .set(
        failing
          ? { status: "failed", failedAt: new Date(), errorCode: "131026", errorReason: "Message undeliverable", senderId: sender.id, attempts: 1, ...extra }
          : { status: "sent", sentAt: new Date(), providerMessageId: `wamid.${id}`, senderId: sender.id, attempts: 1, ...extra },
      )
      .where(eq(messages.id, id));
  }
}

describe("how often alerts are evaluated", () => {
  it("is ALERTS_EVERY_SECONDS when set to a whole number of seconds from 1 to 3600, else 30 s", () => {
    expect(alertsEveryMs({})).toBe(30_000);
    expect(alertsEveryMs({ ALERTS_EVERY_SECONDS: "5" })).toBe(5_000);
    expect(alertsEveryMs({ ALERTS_EVERY_SECONDS: "0" })).toBe(30_000);
    expect(alertsEveryMs({ ALERTS_EVERY_SECONDS: "2.5" })).toBe(30_000);
    expect(alertsEveryMs({ ALERTS_EVERY_SECONDS: "soon" })).toBe(30_000);
  });
});

describe("campaign failure rate", () => {
  it("opens one notice past the threshold, emails the owners and posts to Slack once, and resolves when it recovers", async () => {
    await callRoute(putSettings, "PUT", "/api/alerts/settings", asUser({ body: { failureRatePercent: 30, minMessages: 10, emailOwners: true, slackWebhookUrl: receiver.url } }));
    const campaignId = await createTestCampaign(account.workspaceId, { name: "Spring sale" });
    await outcomes(campaignId, 4, 6);

    const first = await evaluate();
    expect(first.opened).toHaveLength(1);
    expect(first.opened[0]).toMatchObject({ kind: "campaign_failure_rate", subjectId: campaignId, href: `/campaigns/${campaignId}/logs?status=failed` });
    expect(first.opened[0]!.title).toBe("40 % of “Spring sale” failed in the last 15 minutes");
    expect(first.opened[0]!.detail).toContain("4 of 10 messages failed");
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: expect.stringContaining("@example.test"), subject: expect.stringContaining("Spring sale") });
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body).text).toContain("Spring sale");

    // Still failing: the same notice, nobody told twice.
    await outcomes(campaignId, 2, 0);
    expect((await evaluate()).opened).toHaveLength(0);
    expect(mail).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    const [active] = await listActiveNotices(await getDb(), account.workspaceId);
    expect(active).toMatchObject({ title: "50 % of “Spring sale” failed in the last 15 minutes" });
    expect(active!.emailedAt).not.toBeNull();
    expect(active!.slackPostedAt).not.toBeNull();

    // Recovered: many sends, the rate falls under 30 %.
    await outcomes(campaignId, 0, 20);
    expect((await evaluate()).resolved).toBe(1);
    expect(await listActiveNotices(await getDb(), account.workspaceId)).toHaveLength(0);
  });

  it("waits for enough outcomes, leaves test sends out, and ignores failures older than the window", async () => {
    const campaignId = await createTestCampaign(account.workspaceId);
    await outcomes(campaignId, 5, 5); // 50 %, but 10 outcomes under the default 20
    expect((await evaluate()).opened).toHaveLength(0);
    await outcomes(campaignId, 20, 0, { source: "test" });
    expect((await evaluate()).opened).toHaveLength(0);
    const db = await getDb();
    await db.update(messages).set({ failedAt: new Date(Date.now() - 16 * 60_000) }).where(and(eq(messages.campaignId, campaignId), eq(messages.status, "failed")));
    await outcomes(campaignId, 0, 15);
    expect((await evaluate()).opened).toHaveLength(0);
  });

  it("records a Slack webhook that fails, and keeps the notice", async () => {
    await callRoute(putSettings, "PUT", "/api/alerts/settings", asUser({ body: { failureRatePercent: 20, minMessages: 5, emailOwners: false, slackWebhookUrl: receiver.url } }));
    receiver.answer([], 500);
    await outcomes(await createTestCampaign(account.workspaceId), 5, 0);
    const { opened } = await evaluate();
    expect(opened).toHaveLength(1);
    expect(mail).toHaveLength(0);
    const [notice] = await (await getDb()).select().from(notices).where(eq(notices.id, opened[0]!.id));
    expect(notice).toMatchObject({ emailedAt: null, slackPostedAt: null, notifyError: "Slack webhook answered 500" });
  });
});

describe("a failing sender", () => {
  it("opens a notice when the last sends failed for a reason of the sender, and resolves once one goes out", async () => {
    const db = await getDb();
    const sender = await getSenderRow(db, account.workspaceId);
    const campaignId = await createTestCampaign(account.workspaceId);
    for (let i = 0; i < 2; i++) {
      const id = await createTestMessage({ workspaceId: account.workspaceId, campaignId });
      await db
        .update(messages)
        .set({ status: "failed", failedAt: new Date(), errorCode: "190", errorReason: "Error validating access token", senderId: sender.id, attempts: 6 })
        .where(eq(messages.id, id));
    }
    const { opened } = await evaluate();
    expect(opened.map((n) => n.kind)).toContain("sender_failing");
    const failing = opened.find((n) => n.kind === "sender_failing")!;
    expect(failing.title).toMatch(/access token/);
    expect(failing.href).toBe(`/settings/whatsapp/${sender.id}`);

    await outcomes(campaignId, 0, 2);
    await evaluate();
    expect((await listActiveNotices(db, account.workspaceId)).map((n) => n.kind)).not.toContain("sender_failing");
  });
});

describe("settings and notices through the routes", () => {
  it("shows defaults, saves thresholds, keeps the Slack URL masked, refuses private addresses, audits the change", async () => {
    const defaults = await callRoute<AlertSettingsView>(getSettings, "GET", "/api/alerts/settings", asUser());
    expect(defaults.body).toEqual({ failureRatePercent: 20, minMessages: 20, emailOwners: true, slackWebhook: null });
    const saved = await callRoute<AlertSettingsView>(putSettings, "PUT", "/api/alerts/settings", asUser({ body: { failureRatePercent: 10, minMessages: 50, emailOwners: false, slackWebhookUrl: receiver.url } }));
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ failureRatePercent: 10, minMessages: 50, emailOwners: false });
    expect(saved.body.slackWebhook).toMatch(/^127\.0\.0\.1:\d+\/…lack$/);
    expect(JSON.stringify(saved.body)).not.toContain("/services/T000");
    // Absent keeps the URL; null removes it.
    const kept = await callRoute<AlertSettingsView>(putSettings, "PUT", "/x", asUser({ body: { failureRatePercent: 10, minMessages: 50, emailOwners: true } }));
    expect(kept.body.slackWebhook).toBe(saved.body.slackWebhook);
    const removed = await callRoute<AlertSettingsView>(putSettings, "PUT", "/x", asUser({ body: { failureRatePercent: 10, minMessages: 50, emailOwners: true, slackWebhookUrl: null } }));
    expect(removed.body.slackWebhook).toBeNull();

    const bad = await callRoute<{ errors: { path: string }[] }>(putSettings, "PUT", "/x", asUser({ body: { failureRatePercent: 0, minMessages: 50, emailOwners: true } }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]!.path).toBe("failureRatePercent");
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    const internal = await callRoute<{ errors: { path: string; code: string }[] }>(putSettings, "PUT", "/x", asUser({ body: { failureRatePercent: 10, minMessages: 50, emailOwners: true, slackWebhookUrl: "https://10.0.0.5/hook" } }));
    expect(internal.status).toBe(422);
    expect(internal.body.errors[0]).toMatchObject({ path: "slackWebhookUrl", code: "unsafe_url" });
    expect((await callRoute(getSettings, "GET", "/x", { key: account.key })).status).toBe(401);
    const audits = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.workspaceId, account.workspaceId), eq(auditEvents.action, "alerts.settings_changed")));
    expect(audits).toHaveLength(3);
  });

  it("dismisses a notice from the banner without resolving it; another workspace's notice is 404", async () => {
    await callRoute(putSettings, "PUT", "/x", asUser({ body: { failureRatePercent: 20, minMessages: 5, emailOwners: false } }));
    const campaignId = await createTestCampaign(account.workspaceId);
    await outcomes(campaignId, 5, 0);
    const [notice] = (await evaluate()).opened;
    const banner = await callRoute<{ data: NoticeView[] }>(activeRoute, "GET", "/api/alerts/notices", asUser());
    expect(banner.body.data.map((n) => n.id)).toEqual([notice!.id]);
    // The alerts are the owners': an admin or a member of the workspace cannot dismiss them.
    for (const role of ["admin", "member"] as const) {
      const teammate = await createTestMember(account.workspaceId, account.userId, role);
      const teammateCookie = await sessionCookie({ userId: teammate.id, workspaceId: account.workspaceId, email: teammate.email });
      const refused = await callRoute<{ type: string }>(dismissRoute, "POST", "/x", { cookie: teammateCookie, headers: SAME_ORIGIN, params: { id: notice!.id } });
      expect(refused.status, role).toBe(403);
      expect(refused.body.type).toBe("/docs/api#error-owner_required");
    }
    expect(await listActiveNotices(await getDb(), account.workspaceId)).toHaveLength(1);
    const dismissed = await callRoute<NoticeView>(dismissRoute, "POST", "/x", asUser({ params: { id: notice!.id } }));
    expect(dismissed.body).toMatchObject({ id: notice!.id, resolvedAt: null });
    expect(dismissed.body.dismissedAt).not.toBeNull();
    expect(await listActiveNotices(await getDb(), account.workspaceId)).toHaveLength(0);
    expect((await callRoute<{ data: NoticeView[] }>(activeRoute, "GET", "/api/alerts/notices", asUser())).body.data).toEqual([]);
    expect((await evaluate()).opened).toHaveLength(0);
    const other = await createApiAccount();
    const otherCookie = await sessionCookie(other);
    expect((await callRoute(dismissRoute, "POST", "/x", { cookie: otherCookie, headers: SAME_ORIGIN, params: { id: notice!.id } })).status).toBe(404);
  });
});
