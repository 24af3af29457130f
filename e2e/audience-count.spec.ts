import { expect, type Page } from "@playwright/test";
import Papa from "papaparse";
import { signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

/** Five contacts, two without an order number; one number written the Spanish way, without its country code. */
const CSV = ["phone,name,order_number", "+14155550301,Ada,A-1", "+14155550302,Grace,", "612345679,Linus,A-3", "+14155550304,Margaret,", "+14155550305,Ken,A-5"].join("\n");
const WITHOUT_ORDER = ["+14155550302", "+14155550304"];
const LEFT_OUT_REASON = "Left out: a template variable had no value for this contact and no fallback.";

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/audience-${name}-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the workspace's default country reads numbers without a country code; leaving out contacts with empty blanks keeps one audience count from builder to Skipped tile", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  await signUpNewUser(page, { workspace: "Count Shop" });

  // Settings → Workspace: Spain is where numbers without a country code are from.
  await page.goto("/settings/workspace");
  const country = page.getByRole("combobox", { name: "Default country" });
  await expect(country).toHaveValue("");
  await country.selectOption("ES");
  await page.getByRole("button", { name: "Save country" }).click();
  await expect(page.getByText("Default country saved")).toBeVisible();
  await page.reload();
  await expect(country).toHaveValue("ES");
  await shoot(page, "workspace-settings");

  // Import: the picker starts at the workspace's country, so the Spanish number is valid.
  await page.goto("/contacts/import");
  await expect(page.getByLabel("CSV file")).toBeEnabled();
  await page.getByLabel("CSV file").setInputFiles({ name: "orders.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await expect(page.getByTestId("file-summary")).toContainText("5 rows");
  await expect(page.getByLabel("Default country")).toHaveValue("ES");
  await expect(page.getByLabel("Import “order_number” as")).toHaveValue("new");
  await shoot(page, "import-mapping");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("A new list").check();
  await page.getByLabel("New list name").fill("Order file");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Start import" }).click();
  await expect(page.getByTestId("import-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByTestId("import-created")).toHaveText("5");
  await expect(page.getByTestId("import-invalid")).toHaveText("0");

  // A bulk campaign to the file's list, leaving out the two without an order number.
  await page.goto("/campaigns");
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New campaign" });
  await dialog.getByLabel("Campaign name").fill("Order reminder");
  await dialog.getByText("Bulk", { exact: true }).click();
  await dialog.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const campaignId = page.url().split("/").pop()!;
  await page.getByRole("checkbox", { name: /Order file/ }).check();
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_confirmation · en_US · utility" });
  await page.getByLabel("Attribute for Body {{1}}").selectOption("name");
  await page.getByLabel("Attribute for Body {{2}}").selectOption("order_number");
  await expect(page.getByTestId("empty-variables")).toContainText("2 contacts have blanks that would come out empty", { timeout: 15_000 });
  await expect(page.getByTestId("preview-position")).toHaveText("1 of 5");
  // Per blank, from the same count: every contact has a name (no warning there), 2 have no order number.
  await expect(page.getByText("2 contacts have no order_number. Add a fallback, or they are skipped.")).toBeVisible();
  await expect(page.getByText(/contacts? (have|has) no name|may not have name/)).toHaveCount(0);
  await page.getByRole("checkbox", { name: "Leave out contacts with empty blanks" }).check();
  // The builder: one audience of 5 (the preview steps through all of them, to count the blanks), 2 of them left out.
  await expect(page.getByTestId("audience-count")).toHaveText(/^5 recipients/);
  await expect(page.getByTestId("preview-position")).toHaveText("1 of 5");
  await expect(page.getByTestId("empty-variables")).toContainText("2 contacts have blanks that would come out empty");
  await expect(page.getByRole("checkbox", { name: "Leave out contacts with empty blanks" })).toBeChecked();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await shoot(page, "builder");

  // The launch dialog: the same 5, the same 2 skipped, 3 sent. Escape gives focus back to the button that opened it.
  const launchButton = page.getByRole("button", { name: "Launch…" });
  await launchButton.click();
  const launch = page.getByRole("dialog", { name: "Launch this campaign?" });
  await expect(launch.getByText("Audience: 5 recipients")).toBeVisible();
  await expect(launch.getByTestId("launch-skipped")).toContainText("2 of them are skipped");
  await expect(launch.getByRole("button", { name: "Send to 3 now" })).toBeVisible();
  await shoot(page, "launch-dialog");
  await page.keyboard.press("Escape");
  await expect(launch).toBeHidden();
  await expect(launchButton).toBeFocused();
  await launchButton.click();
  await launch.getByRole("button", { name: "Send to 3 now" }).click();

  // The campaign page: 5 of 5 settled, 3 sent, the Skipped tile 2.
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}$`));
  await expect(page.getByTestId("campaign-status")).toHaveText("Completed", { timeout: 90_000 });
  const progress = page.getByRole("region", { name: "Sending progress" });
  await expect(progress).toContainText("5 of 5 settled");
  await expect(progress.getByTestId("funnel-sent")).toHaveText("3");
  await expect(progress.getByTestId("funnel-skipped")).toHaveText("2");
  await shoot(page, "campaign");

  // The two left out are listed with why.
  const download = await page.request.get(`${baseURL}/api/v1/campaigns/${campaignId}/logs.csv`);
  expect(download.ok()).toBe(true);
  const rows = Papa.parse<Record<string, string>>(await download.text(), { header: true, skipEmptyLines: true }).data;
  expect(rows).toHaveLength(5);
  const skipped = rows.filter((row) => row.status === "skipped");
  expect(skipped.map((row) => row.phone_number).sort()).toEqual(WITHOUT_ORDER);
  for (const row of skipped) {
    expect(row.error_code).toBe("variables_missing");
    expect(row.error_reason).toBe(LEFT_OUT_REASON);
  }
  expect(rows.find((row) => row.phone_number === "+34612345679")?.status).not.toBe("skipped");
  await page.goto(`/campaigns/${campaignId}/logs`);
  for (const phone of WITHOUT_ORDER) await expect(page.getByRole("main")).toContainText(phone);
  await expect(page.getByRole("main").getByText(LEFT_OUT_REASON).first()).toBeVisible();
  await shoot(page, "logs");
});
