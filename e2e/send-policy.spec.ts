import { expect } from "@playwright/test";
import { audit, expectFitsPhone, expectNoViolations, type PageReport } from "./checks";
import { buildOrderCampaign, screenshotsAtBothWidths, signUpNewUser, test } from "./fixtures";

test("quiet hours and a frequency cap set in the builder, kept on save, shown on deploy", async ({ page }) => {
  const reports: PageReport[] = [];
  await signUpNewUser(page);
  await buildOrderCampaign(page, "Order confirmation");

  const policy = page.getByRole("group", { name: "Quiet hours" });
  await policy.getByRole("switch", { name: /Quiet hours/ }).check();
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("21:00");
  await page.getByLabel("until", { exact: true }).fill("07:30");
  const cap = page.getByRole("group", { name: "Frequency cap" });
  await cap.getByRole("switch", { name: /Frequency cap/ }).check();
  await page.getByLabel("At most").fill("3");
  await page.getByLabel("Period").selectOption({ label: "day" });
  await page.getByLabel("Counted messages").selectOption({ label: "this campaign" });
  await audit(page, "builder-send-policy", reports);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("until", { exact: true })).toHaveValue("07:30");
  await expect(page.getByLabel("At most")).toHaveValue("3");
  await screenshotsAtBothWidths(page, "builder-send-policy");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(page, "builder-send-policy");
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  const summary = live.getByRole("list", { name: "Send policy" });
  await expect(summary).toContainText("No sends 21:00–07:30 in each contact's time zone");
  await expect(summary).toContainText("At most 3 per contact per day from this campaign");
  expectNoViolations(reports);
});
