import { expect } from "@playwright/test";
import { audit, expectFitsPhone, expectNoViolations, type PageReport } from "./checks";
import { createApiKeyThroughUi, deployOrderCampaign, screenshotsAtBothWidths, signUpNewUser, test, waitForToastsToClose } from "./fixtures";

/** Sandbox number that fails at once with WhatsApp error 131026 (lib/channels/sandbox/index.ts). */
const UNDELIVERABLE = "+447700131026";

test("a campaign that keeps failing raises an alert for the owner, shown on every page until dismissed", async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  const reports: PageReport[] = [];
  await signUpNewUser(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).click();
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await page.getByLabel("Failure rate (%)").fill("0");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Use 1 to 100.")).toBeVisible();
  await page.getByLabel("Failure rate (%)").fill("50");
  await page.getByLabel("Out of at least (messages)").fill("2");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Alert settings saved")).toBeVisible();
  await waitForToastsToClose(page);
  await audit(page, "alerts-settings", reports);

  await page.goto("/campaigns");
  const campaignId = await deployOrderCampaign(page, "Spring sale");
  const key = await createApiKeyThroughUi(page, "Shop backend");
  const api = await playwright.request.newContext({ baseURL });
  for (const order of ["A-1", "A-2"]) {
    const accepted = await api.post(`/api/campaigns/${campaignId}/trigger`, {
      headers: { "x-api-key": key },
      data: { phone: UNDELIVERABLE, name: "Maria", order_number: order },
    });
    expect(accepted.status()).toBe(202);
  }

  // The server evaluates alerts every 5 s here (ALERTS_EVERY_SECONDS in playwright.config.ts); the
  // banner is part of every page.
  await expect(async () => {
    await page.goto("/campaigns");
    await expect(page.getByRole("region", { name: "Alerts" })).toContainText("100 % of “Spring sale” failed in the last 15 minutes", { timeout: 1_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000] });
  const alert = page.getByRole("region", { name: "Alerts" }).getByRole("alert");
  await expect(alert).toContainText("2 of 2 messages failed");
  await audit(page, "campaigns-with-alert", reports);
  await screenshotsAtBothWidths(page, "alert-banner");
  await alert.getByRole("link", { name: "See the failures" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/logs\\?status=failed`));
  await expect(page.getByRole("region", { name: "Alerts" })).toBeVisible();

  await page.getByRole("button", { name: /^Dismiss alert: 100 %/ }).click();
  await expect(page.getByRole("region", { name: "Alerts" })).toHaveCount(0);
  await page.goto("/settings/alerts");
  await expect(page.getByRole("region", { name: "Alerts" })).toHaveCount(0);
  const history = page.getByRole("list", { name: "Recent alerts" });
  await expect(history).toContainText("Spring sale");
  await expect(history).toContainText("Open");
  await expect(history).toContainText("emailed");
  await screenshotsAtBothWidths(page, "alerts-settings");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(page, "alerts-settings");
  await page.setViewportSize({ width: 1280, height: 720 });
  expectNoViolations(reports);
});
