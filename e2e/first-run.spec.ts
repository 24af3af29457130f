import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import { signInAsDemo, test } from "./fixtures";

/** SHOTS_DIR: full-page screenshots of the first-run pages at 1280 and 390 px. */
const SHOTS = process.env.SHOTS_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The logs switch to cards after hydration at this width.
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
  await page.screenshot({ path: `${SHOTS}/${name}-390-screen.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the demo workspace: a checklist, customers, a completed bulk campaign with replies and a live trigger campaign with a day of logs", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsDemo(page);

  // Home: both kinds of campaign, and the checklist checked from the workspace's data.
  await expect(page.getByText(/bulk campaigns send one to everyone in an audience/i)).toBeVisible();
  const checklist = page.getByRole("region", { name: "Get started" });
  await expect(checklist).toBeVisible();
  await expect(checklist.getByText("3 of 4 done")).toBeVisible();
  await expect(checklist.getByText("Write a template (to do)")).toBeAttached();
  await expect(checklist.getByText("Import your contacts (done)")).toBeAttached();
  await expect(checklist.getByRole("link", { name: "Import contacts" })).toHaveAttribute("href", "/contacts/import");
  await shots(page, "home");

  const bulkRow = page.getByRole("row").filter({ hasText: "April bike service reminders" });
  await expect(bulkRow.getByText("Completed")).toBeVisible();
  await expect(bulkRow.getByRole("cell", { name: "Bulk" })).toBeVisible();
  const triggerRow = page.getByRole("row").filter({ hasText: "Order confirmation" });
  await expect(triggerRow.getByText("Active")).toBeVisible();

  // Contacts exist, with their attributes.
  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();
  await expect(page.getByRole("table").first().getByRole("row").nth(10)).toBeVisible();

  // The completed bulk campaign: its logs hold the replies beside the messages.
  await page.goto("/campaigns");
  await page.getByRole("link", { name: "April bike service reminders" }).click();
  await expect(page.getByRole("heading", { name: "April bike service reminders" })).toBeVisible();
  const bulkId = /\/campaigns\/(cmp_[A-Za-z0-9]+)/.exec(page.url())![1];
  await page.goto(`/campaigns/${bulkId}/logs`);
  const messages = page.getByRole("table", { name: "Messages" });
  await expect(messages.locator("[data-direction=inbound]").first()).toBeVisible();
  await expect(page.getByTestId("count-read")).not.toHaveText("0");
  await expect(page.getByTestId("count-queued")).toHaveText("0");
  const sent = Number((await page.getByTestId("count-sent").innerText()).replace(/,/g, ""));
  const delivered = Number((await page.getByTestId("count-delivered").innerText()).replace(/,/g, ""));
  const read = Number((await page.getByTestId("count-read").innerText()).replace(/,/g, ""));
  expect(sent).toBeGreaterThanOrEqual(delivered);
  expect(delivered).toBeGreaterThanOrEqual(read);
  await shots(page, "bulk-logs");

  // The live trigger campaign: a day of requests and messages.
  await page.goto("/campaigns");
  await page.getByRole("link", { name: "Order confirmation" }).click();
  await page.waitForURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const triggerId = /\/campaigns\/(cmp_[A-Za-z0-9]+)/.exec(page.url())![1];
  await page.goto(`/campaigns/${triggerId}/logs`);
  await expect(page.getByRole("table", { name: "Messages" }).getByText(/thanks for your order! Your order number is A-1\d{4}/).first()).toBeVisible();
  await expect(page.getByTestId("count-sent")).not.toHaveText("0");
  // Its request log: the shop's calls of the last day, accepted and refused.
  await page.goto(`/campaigns/${triggerId}/requests`);
  const requests = page.getByRole("list", { name: "Requests" });
  await expect(requests.getByRole("listitem").nth(10)).toBeVisible();
  await expect(requests.getByText("422").first()).toBeVisible();
  await page.goto("/logs");
  await expect(page.getByRole("table", { name: "Messages" }).getByRole("row").nth(5)).toBeVisible();
  await shots(page, "logs");

  // The audit log in words, with names and the reason an address is missing.
  await page.goto("/settings/audit-log");
  const audit = page.getByRole("table", { name: "Audit log" });
  await expect(audit.getByRole("cell", { name: "Launched a campaign" })).toBeVisible();
  await expect(audit.getByText("April bike service reminders")).toBeVisible();
  await expect(audit.getByRole("cell", { name: "Created an API key" })).toBeVisible();
  await expect(audit.getByText("Shop checkout")).toBeVisible();
  await expect(audit.getByText("203.0.113.24").first()).toBeVisible();
  // The contact who replied STOP: named, and the change was the app's own.
  const optOut = audit.getByRole("row").filter({ hasText: "Contact opted out" });
  await expect(optOut.getByText(/made by the app itself/)).toBeVisible();
  await expect(optOut.getByText("ctc_")).toHaveCount(0);
  await expect(audit.getByText("campaign.launched")).toHaveCount(0);
  await shots(page, "audit-log");

  // Dismissed, the checklist stays hidden.
  await page.goto("/campaigns");
  await page.getByRole("button", { name: "Hide the getting started checklist" }).click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  await expect(checklist).toHaveCount(0);
});
