import { expect, type Page } from "@playwright/test";
import Papa from "papaparse";
import { audit, expectNoViolations, type PageReport } from "./checks";
import { createApiKeyThroughUi, signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

/** Three contacts opted in, two did not: the two must not get the marketing message. */
const CSV = [
  "Phone,Name,Opt-in",
  "+14155550201,Ada,yes",
  "+14155550202,Grace,Yes",
  "+14155550203,Linus,yes",
  "+14155550204,Margaret,no",
  "+14155550205,Ken,NO",
].join("\n");
const NOT_OPTED_IN = ["+14155550204", "+14155550205"];

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/consent-${name}-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("import an opt-in column as consent with the permission confirmation; a marketing campaign skips those who did not opt in", async ({ page, playwright, baseURL }) => {
  test.setTimeout(240_000);
  const reports: PageReport[] = [];
  await signUpNewUser(page, { workspace: "Consent Shop" });

  // Import: the Opt-in column is mapped to consent (yes → subscribed, no → unknown), and the import asks for permission.
  await page.goto("/contacts/import");
  await expect(page.getByLabel("CSV file")).toBeEnabled();
  await page.getByLabel("CSV file").setInputFiles({ name: "opt-in.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await expect(page.getByTestId("file-summary")).toContainText("5 rows");
  await expect(page.getByLabel("Import “Opt-in” as")).toHaveValue("consent");
  await expect(page.getByLabel("Consent values preset for “Opt-in”")).toHaveValue("yes_no");
  await expect(page.getByLabel("“yes” means")).toHaveValue("subscribed");
  await expect(page.getByLabel("“no” means")).toHaveValue("unknown");
  await shoot(page, "import-mapping");
  await audit(page, "import-mapping-consent", reports, { screenshot: false });
  await page.getByRole("button", { name: "Continue" }).click();
  // Not without the confirmation.
  await expect(page.getByRole("alert").filter({ hasText: "Confirm you have permission" })).toBeVisible();
  await page.getByLabel("I confirm these contacts gave permission to receive WhatsApp messages from us").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("A new list").check();
  await page.getByLabel("New list name").fill("Opt-in file");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("From the file; permission confirmed")).toBeVisible();
  await page.getByRole("button", { name: "Start import" }).click();
  await expect(page.getByTestId("import-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByTestId("import-created")).toHaveText("5");

  // The contact page: status, source and time, and a change by hand.
  await page.goto("/contacts");
  await page.getByRole("link", { name: "+14155550201" }).click();
  const status = page.getByTestId("consent-status");
  await expect(status).toContainText("Subscribed by import on");
  await shoot(page, "contact");
  await audit(page, "contact-consent", reports, { screenshot: false });
  await page.getByRole("link", { name: "Contacts", exact: true }).first().click();
  await page.getByRole("link", { name: "+14155550204" }).click();
  await expect(status).toContainText("Unknown");
  await expect(status).toContainText("No record of consent");

  // A bulk campaign on the approved MARKETING template, to the imported list.
  await page.goto("/campaigns");
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New campaign" });
  await dialog.getByLabel("Campaign name").fill("Weekly offers");
  await dialog.getByText("Bulk", { exact: true }).click();
  await dialog.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const campaignId = page.url().split("/").pop()!;
  await page.getByRole("checkbox", { name: /Opt-in file/ }).check();
  await expect(page.getByTestId("audience-count")).toHaveText(/^5 recipients · 3 subscribed, 2 unknown consent/);
  await shoot(page, "builder-count");
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "weekly_offers · en_US · marketing" });
  await page.getByLabel("Attribute for Body {{1}}").selectOption("name");

  // The launch check shows the split; unknown consent stays out unless included.
  await page.getByRole("button", { name: "Launch…" }).click();
  const launch = page.getByRole("dialog", { name: "Launch this campaign?" });
  const split = launch.getByRole("list", { name: "Audience by consent" });
  await expect(split).toContainText("3 subscribed");
  await expect(split).toContainText("2 unknown (excluded: stored as skipped, no consent)");
  await expect(split).toContainText("0 unsubscribed (excluded: never sent)");
  const include = launch.getByLabel("Also send to the 2 contacts with unknown consent");
  await expect(include).not.toBeChecked();
  await include.check();
  await expect(split).toContainText("2 unknown (included)");
  await expect(launch.getByRole("button", { name: "Send to 5 now" })).toBeVisible();
  await include.uncheck();
  await shoot(page, "launch-dialog");
  await audit(page, "launch-dialog-consent", reports, { screenshot: false });
  await launch.getByRole("button", { name: "Send to 3 now" }).click();
  await expect(launch).toBeHidden();

  // Three sent, the two who did not opt in skipped with the reason.
  const progress = page.getByRole("region", { name: "Sending progress" });
  await expect(progress.getByTestId("funnel-sent")).toHaveText("3", { timeout: 30_000 });
  await expect(progress.getByTestId("funnel-skipped")).toHaveText("2");

  const download = await page.request.get(`${baseURL}/api/v1/campaigns/${campaignId}/logs.csv`);
  expect(download.ok()).toBe(true);
  const rows = Papa.parse<Record<string, string>>(await download.text(), { header: true, skipEmptyLines: true }).data;
  const skipped = rows.filter((row) => row.status === "skipped");
  expect(skipped.map((row) => row.phone_number).sort()).toEqual(NOT_OPTED_IN);
  for (const row of skipped) {
    expect(row.error_code).toBe("no_consent");
    expect(row.error_reason).toContain("has not subscribed");
  }
  expect(rows.filter((row) => row.status !== "skipped").map((row) => row.phone_number).sort()).toEqual(["+14155550201", "+14155550202", "+14155550203"]);

  // The API tells the same: consent with status, source and time.
  const key = await createApiKeyThroughUi(page, "Consent e2e");
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-api-key": key } });
  const contact = (await (await api.get(`/api/v1/contacts/${encodeURIComponent("+14155550201")}`)).json()) as { consent: { status: string; source: string; updatedAt: string } };
  expect(contact.consent).toMatchObject({ status: "subscribed", source: "import" });
  expect(Date.parse(contact.consent.updatedAt)).not.toBeNaN();
  await api.dispose();
  expectNoViolations(reports);
});
