import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import Papa from "papaparse";
import { createApiKeyThroughUi, deployOrderCampaign, signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";
/** The sandbox fails this reserved number at once with 131026 (lib/channels/sandbox/index.ts). */
const UNDELIVERABLE = "+447700131026";
const CAMPAIGN_NAME = 'Spring "VIP", 2026';

async function downloadCsv(page: Page): Promise<{ fileName: string; rows: Record<string, string>[] }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const text = fs.readFileSync((await download.path())!, "utf8");
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual([
    "created_at", "message_id", "phone_number", "template", "message", "status",
    "error_code", "error_reason", "sent_at", "delivered_at", "read_at", "replied_at", "direction", "source", "journey_step",
  ]);
  return { fileName: download.suggestedFilename(), rows: parsed.data };
}

test("messages sent through a campaign appear live in its logs, and Export CSV downloads exactly those rows", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Logs Shop" });
  const campaignId = await deployOrderCampaign(page, CAMPAIGN_NAME);
  const key = await createApiKeyThroughUi(page, "Logs e2e");

  // Empty logs explain how to send the first message.
  await page.goto(`/campaigns/${campaignId}/logs`);
  await expect(page.getByRole("heading", { name: "No messages yet" })).toBeVisible();
  await expect(page.getByLabel("curl example")).toContainText(`/api/campaigns/${campaignId}/trigger`);

  // An external system sends three messages, one to the sandbox's undeliverable number.
  const api = await playwright.request.newContext({ baseURL });
  const accepted = await api.post(`/api/campaigns/${campaignId}/trigger`, {
    headers: { "x-api-key": key },
    data: [
      { phone: "+14155552671", name: "Zoë \"Z\", 🎉", order_number: "A-1" },
      { phone: "+14155552672", name: "=HYPERLINK(\"http://x\")", order_number: "A-2" },
      { phone: UNDELIVERABLE, name: "Nobody", order_number: "A-3" },
    ],
  });
  expect(accepted.status()).toBe(202);
  const ids = ((await accepted.json()) as { data: { id: string }[] }).data.map((m) => m.id);
  await api.dispose();

  // They appear without a reload (polling), and the failure shows its reason.
  const table = page.getByRole("table", { name: "Messages" });
  await expect(table.locator("tbody tr[data-message-id]")).toHaveCount(3, { timeout: 30_000 });
  const failedRow = table.locator(`tr[data-message-id="${ids[2]}"]`);
  await expect(failedRow).toContainText(UNDELIVERABLE);
  await expect(failedRow).toContainText("Failed", { timeout: 30_000 });
  await expect(failedRow).toContainText(/undeliverable/i);
  await expect(page.getByTestId("count-failed")).toHaveText("1", { timeout: 15_000 });

  // Full text on expand.
  const firstRow = table.locator(`tr[data-message-id="${ids[0]}"]`);
  await firstRow.getByRole("button", { name: /Show full message to \+14155552671/ }).click();
  await expect(page.locator(`#message-${ids[0]}`)).toContainText('Hi Zoë "Z", 🎉, thanks for your order! Your order number is A-1.');
  await page.screenshot({ path: `${shots}/logs-campaign.png`, fullPage: true });

  // Export CSV: the same three messages, statuses and error reason as the table.
  await page.reload();
  const all = await downloadCsv(page);
  expect(all.fileName).toMatch(/^spring-vip-2026-logs-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(all.rows.map((row) => row.message_id).sort()).toEqual([...ids].sort());
  for (const row of all.rows) {
    const shown = table.locator(`tr[data-message-id="${row.message_id}"]`);
    await expect(shown).toContainText(row.phone_number!);
    await expect(shown).toContainText(new RegExp(row.status!, "i"));
    expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(row.template).toBe("order_confirmation (en_US)");
  }
  const byId = Object.fromEntries(all.rows.map((row) => [row.message_id, row]));
  expect(byId[ids[0]!]!.message).toContain('Hi Zoë "Z", 🎉, thanks');
  expect(byId[ids[1]!]!.message).toContain('Hi =HYPERLINK("http://x"), thanks');
  const failed = byId[ids[2]!]!;
  expect(failed).toMatchObject({ phone_number: UNDELIVERABLE, status: "failed" });
  expect(failed.error_reason).toMatch(/undeliverable/i);
  expect(failed.error_code).toBe("131026");
  // The exported error is the one the table shows.
  await expect(failedRow).toContainText(failed.error_reason!);
  await expect(failedRow).toContainText(`(${failed.error_code})`);
  expect(byId[ids[0]!]!.error_reason).toBe("");

  // Filter to the failure: the table and the export both narrow to it.
  await page.getByRole("link", { name: /^Failed 1\b/ }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(table.locator("tbody tr[data-message-id]")).toHaveCount(1);
  const failedOnly = await downloadCsv(page);
  expect(failedOnly.rows.map((row) => row.message_id)).toEqual([ids[2]]);

  // Phone search.
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).not.toHaveURL(/status=failed/);
  await expect(table.locator("tbody tr[data-message-id]")).toHaveCount(3);
  await page.getByLabel("Phone number").fill("552672");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(table.locator("tbody tr[data-message-id]")).toHaveCount(1);
  await expect(table).toContainText("+14155552672");

  // The sidebar's Logs page lists them too, and its campaign filter opens the campaign's logs.
  await page.getByRole("link", { name: "Logs", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Logs", level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Messages" }).locator("tbody tr[data-message-id]")).toHaveCount(3);
  await page.getByLabel("Campaign").selectOption({ label: CAMPAIGN_NAME });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/logs`));
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeVisible();
});
