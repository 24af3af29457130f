import fs from "node:fs";
import { expect } from "@playwright/test";
import Papa from "papaparse";
import { createApiKeyThroughUi, deployOrderCampaign, signUpNewUser, test, waitForToastsToClose } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

// Six rows: one damaged by a spreadsheet (invalid) and one repeating an earlier phone (duplicate).
const CSV = [
  "phone,name,city,visits",
  "+14155550101,Ana,Lisbon,3",
  "+14155550102,Ben,Porto,5",
  "+14155550103,Cleo,Lisbon,1",
  "4.41E+11,Broken,Faro,2",
  "+14155550101,Ana again,Lisbon,4",
  "+14155550104,Dan,Braga,7",
].join("\n");

test("import a CSV, read its report, opt a contact out and count a segment", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Contacts Shop" });

  const sidebar = page.getByRole("navigation", { name: "Main" });
  await sidebar.getByRole("link", { name: "Contacts" }).click();
  await expect(page.getByRole("heading", { name: "No contacts yet" })).toBeVisible();
  await page.getByRole("link", { name: "Import contacts" }).first().click();
  await expect(page.getByRole("heading", { name: "Import contacts", level: 1 })).toBeVisible();

  // Upload → preview and mapping guessed from the headers.
  await expect(page.getByLabel("CSV file")).toBeEnabled();
  await page.getByLabel("CSV file").setInputFiles({ name: "spring-fair.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await expect(page.getByTestId("file-summary")).toContainText("6 rows");
  const preview = page.getByRole("table", { name: "File preview" });
  await expect(preview.locator("tbody tr")).toHaveCount(6);
  await expect(preview.locator("tbody tr").nth(3)).toContainText("Invalid: a spreadsheet turned this number into scientific notation");
  await expect(page.getByLabel("Import “phone” as")).toHaveValue("phone");
  await expect(page.getByLabel("Import “name” as")).toHaveValue("name");
  await expect(page.getByLabel("Import “city” as")).toHaveValue("new");
  await expect(page.getByLabel("Attribute name for “city”")).toHaveValue("city");
  await expect(page.getByLabel("Type of “visits”")).toHaveValue("number");
  // No country is guessed; every number here carries its own.
  await expect(page.getByLabel("Default country")).toHaveValue("");
  await expect(page.getByTestId("country-effect")).toContainText("affects no rows");
  await page.getByRole("button", { name: "Continue" }).click();

  // Options: a new list.
  await page.getByLabel("A new list").check();
  await page.getByLabel("New list name").fill("Spring fair");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Start import" }).click();

  // The job page: progress, then the report.
  await expect(page).toHaveURL(/\/contacts\/imports\/imp_[A-Za-z0-9]+/);
  await expect(page.getByTestId("import-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByRole("progressbar", { name: "Import progress" })).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByTestId("import-rows-read")).toHaveText("6");
  await expect(page.getByTestId("import-created")).toHaveText("4");
  await expect(page.getByTestId("import-duplicates")).toHaveText("1");
  await expect(page.getByTestId("import-invalid")).toHaveText("1");
  await page.screenshot({ path: `${shots}/contacts-import-report.png`, fullPage: true });

  // A reload finds the same report.
  await page.reload();
  await expect(page.getByTestId("import-created")).toHaveText("4");

  // Rejected rows download with their reason.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download rejected rows" }).click()]);
  const rejected = Papa.parse<Record<string, string>>(fs.readFileSync((await download.path())!, "utf8"), { header: true, skipEmptyLines: true });
  expect(rejected.data).toHaveLength(1);
  expect(JSON.stringify(rejected.data[0])).toContain("4.41E+11");

  // The contacts, in the new list.
  await page.getByRole("link", { name: "View contacts" }).click();
  const table = page.getByRole("table", { name: "Contacts" });
  await expect(table.locator("tbody tr[data-contact-id]")).toHaveCount(4);
  await expect(table).toContainText("Spring fair");
  await page.getByLabel("Search").fill("(415) 555-0103");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(table.locator("tbody tr[data-contact-id]")).toHaveCount(1);

  // Open a contact and opt it out.
  await table.getByRole("link", { name: "+14155550103" }).click();
  await expect(page.getByRole("heading", { name: "+14155550103", level: 1 })).toBeVisible();
  await expect(page.getByLabel("City", { exact: true })).toHaveValue("Lisbon");
  await page.getByRole("button", { name: "Opt out" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Opt this contact out?" });
  await confirm.getByRole("button", { name: "Opt out" }).click();
  await expect(page.getByTestId("consent-status")).toContainText("Opted out by hand");
  await waitForToastsToClose(page);

  // The sandbox simulates replies: START opts back in, STOP opts out again.
  await page.getByLabel("Reply text").fill("start");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByTestId("consent-status")).toContainText("Subscribed");
  await waitForToastsToClose(page);
  await page.getByLabel("Reply text").fill("STOP");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByTestId("consent-status")).toContainText("Opted out by replying “STOP”");
  const contactUrl = page.url();

  // A trigger campaign that respects opt-outs records the send as skipped, with the reason, in the contact's history.
  await page.goto("/campaigns");
  const campaignId = await deployOrderCampaign(page, "Order confirmation");
  const key = await createApiKeyThroughUi(page, "Contacts e2e");
  const api = await playwright.request.newContext({ baseURL });
  const triggered = await api.post(`/api/campaigns/${campaignId}/trigger`, { headers: { "x-api-key": key }, data: { phone: "+14155550103", name: "Cleo", order_number: "A-7" } });
  expect(triggered.status()).toBe(202);
  await api.dispose();
  await page.goto(contactUrl);
  const history = page.getByRole("table", { name: "Message history" });
  // Both directions side by side: the two simulated replies and the skipped send.
  await expect(history.locator("tbody tr")).toHaveCount(3);
  await expect(history.locator('tbody tr[data-direction="inbound"]')).toHaveCount(2);
  await expect(history.locator('tbody tr[data-direction="outbound"]')).toContainText("Skipped");
  await expect(history).toContainText("Skipped");
  await expect(history).toContainText("Order confirmation");
  await expect(history).toContainText(/opted out/i);
  await page.screenshot({ path: `${shots}/contacts-contact.png`, fullPage: true });

  // A segment: Lisbon contacts (2), then only those opted in (1).
  await sidebar.getByRole("link", { name: "Contacts" }).click();
  await page.getByRole("navigation", { name: "Contacts sections" }).getByRole("link", { name: "Segments" }).click();
  await page.getByRole("link", { name: "New segment" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Lisbon, opted in");
  await page.getByRole("button", { name: "Add condition" }).click();
  await page.getByLabel("Attribute of condition 1").selectOption("city");
  await page.getByLabel("Operator of condition 1").selectOption("equals");
  await page.getByLabel("Value of condition 1").fill("Lisbon");
  await expect(page.getByTestId("segment-count")).toHaveText("2 contacts match");
  await page.getByRole("button", { name: "Add condition" }).click();
  await page.getByLabel("Field of condition 2").selectOption("opted_out");
  await page.getByLabel("Value of condition 2").selectOption("false");
  await expect(page.getByTestId("segment-count")).toHaveText("1 contact matches");
  // Consent status: Ana never stated hers (unknown); Cleo unsubscribed by replying STOP.
  await page.getByRole("button", { name: "Add condition" }).click();
  await page.getByLabel("Field of condition 3").selectOption({ label: "Consent" });
  await expect(page.getByLabel("Consent status of condition 3")).toHaveValue("subscribed");
  await expect(page.getByTestId("segment-count")).toHaveText("0 contacts match");
  await page.getByLabel("Consent status of condition 3").selectOption("unknown");
  await expect(page.getByTestId("segment-count")).toHaveText("1 contact matches");
  await page.getByRole("button", { name: "Create segment" }).click();
  await expect(page).toHaveURL(/\/contacts\/segments\/seg_[A-Za-z0-9]+$/);
  await expect(page.getByRole("heading", { name: "Lisbon, opted in", level: 1 })).toBeVisible();
  await expect(page.getByTestId("segment-count")).toHaveText("1 contact matches");
});
