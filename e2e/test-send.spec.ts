import { expect } from "@playwright/test";
import { buildOrderCampaign, screenshotsAtBothWidths, signUpNewUser, test } from "./fixtures";

test("test a trigger campaign from the builder before deploying, then from the live dialog, without curl", async ({ page }) => {
  await signUpNewUser(page);
  const campaignId = await buildOrderCampaign(page, "Order confirmation");

  // From the builder, still a draft: the example body of the trigger node, a mistake, then a real send.
  await page.getByRole("button", { name: "Test send" }).click();
  let dialog = page.getByRole("dialog", { name: "Send a test" });
  const body = dialog.getByLabel("Request body");
  await expect(body).toHaveValue(/"order_number"/);
  await expect(body).not.toHaveValue(/"phone"/);
  await dialog.getByLabel("Your phone number").fill("+14155550142");
  await body.fill("{ not json");
  await dialog.getByRole("button", { name: "Send test" }).click();
  await expect(dialog.getByRole("alert")).toContainText("one JSON object");
  await body.fill(JSON.stringify({ name: "Maria", order_number: "A-10482" }, null, 2));
  await dialog.getByRole("button", { name: "Send test" }).click();
  const sent = dialog.getByTestId("test-message");
  await expect(sent).toContainText("+14155550142");
  await expect(sent).toContainText("A-10482");
  await expect(sent).toContainText(/Delivered|Read/, { timeout: 30_000 });
  await screenshotsAtBothWidths(page, "trigger-test-send");
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Draft");

  // Deployed: the live dialog offers the same test.
  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  await live.getByRole("button", { name: "Send a test message" }).click();
  dialog = page.getByRole("dialog", { name: "Send a test" });
  // Numbers as people write them, with spaces, two at once; then a national number with its country.
  await dialog.getByLabel("Your phone number").fill("+34 612 34 56 78, +16466204510");
  await dialog.getByRole("button", { name: "Send test" }).click();
  await expect(dialog.getByTestId("test-message")).toHaveCount(2);
  await expect(dialog.getByTestId("test-message").filter({ hasText: "+34612345678" })).toContainText(/Sent|Delivered|Read/, { timeout: 30_000 });
  await expect(dialog.getByTestId("test-message").filter({ hasText: "+16466204510" })).toContainText(/Sent|Delivered|Read/, { timeout: 30_000 });
  await dialog.getByLabel("Your phone number").fill("612 34 56 79");
  await dialog.getByRole("button", { name: "Send again" }).click();
  await expect(dialog.getByRole("alert")).toContainText("no country code");
  await dialog.getByLabel("Country of numbers without a country code").selectOption("ES");
  await dialog.getByRole("button", { name: "Send again" }).click();
  // Shown once the server answers the send: under a loaded CI machine that took longer than the default 10 s.
  await expect(dialog.getByTestId("test-message").filter({ hasText: "+34612345679" })).toBeVisible({ timeout: 30_000 });

  // Tests show in the logs, marked, and never in the campaign's counts.
  await page.goto(`/campaigns/${campaignId}/logs`);
  const logs = page.getByRole("table", { name: "Messages" });
  await expect(logs.getByRole("row").filter({ hasText: "+14155550142" })).toContainText(/test/i);
});
