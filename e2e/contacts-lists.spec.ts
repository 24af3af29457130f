import { expect, type Page } from "@playwright/test";
import { audit, expectNoViolations, type PageReport } from "./checks";
import { createApiKeyThroughUi, signUpNewUser, test, waitForToastsToClose } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

const CONTACTS = [
  { phone: "+34612000101", name: "Lucía", attributes: { city: "Madrid", first_name: "Lucía", loyalty_tier: "gold" } },
  { phone: "+34612000102", name: "Mateo", attributes: { city: "Madrid", first_name: "Mateo", loyalty_tier: "silver" } },
  { phone: "+34612000103", name: "Pau", attributes: { city: "Barcelona", first_name: "Pau", loyalty_tier: "gold" } },
];

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/contacts-lists-${name}-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("add a contact, see the count, fill a list by hand and from a segment, remove, choose columns", async ({ page, playwright, baseURL }) => {
  const reports: PageReport[] = [];
  await signUpNewUser(page, { workspace: "Lists Shop" });
  const key = await createApiKeyThroughUi(page, "Lists e2e");
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-api-key": key } });
  for (const [attribute, type] of [["city", "string"], ["first_name", "string"], ["loyalty_tier", "string"]]) {
    expect((await api.post("/api/v1/contact-attributes", { data: { key: attribute, type } })).ok()).toBe(true);
  }
  expect((await api.post("/api/v1/contacts/bulk", { data: CONTACTS })).status()).toBe(200);
  const segment = await api.post("/api/v1/segments", {
    data: { name: "Madrid", filter: { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: "Madrid" }] } },
  });
  expect(segment.status()).toBe(201);
  expect((await api.post("/api/v1/lists", { data: { name: "VIP" } })).status()).toBe(201);
  await api.dispose();

  // The count, then Add contact: a national number read with the chosen country.
  await page.goto("/contacts");
  const count = page.getByTestId("contacts-count");
  await expect(count).toHaveText("3 contacts");
  await page.getByRole("button", { name: "Add contact" }).click();
  const dialog = page.getByRole("dialog", { name: "Add contact" });
  await dialog.getByLabel("Country").selectOption("ES");
  await dialog.getByLabel("Phone number").fill("612 000 104");
  await dialog.getByLabel("Name (optional)").fill("Sofía");
  await dialog.getByLabel("Consent").selectOption("subscribed");
  await dialog.getByRole("button", { name: "Add attribute" }).click();
  await dialog.getByLabel("Attribute 1 key").fill("city");
  await dialog.getByLabel("City value").fill("Madrid");
  await shoot(page, "add-contact");
  await audit(page, "add-contact-dialog", reports, { screenshot: false });
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(dialog).toBeHidden();
  await expect(count).toHaveText("4 contacts");
  const table = page.getByRole("table", { name: "Contacts" });
  await expect(table.getByRole("row", { name: /\+34612000104/ })).toContainText("Sofía");
  await expect(table.getByRole("row", { name: /\+34612000104/ })).toContainText("Subscribed");

  // The same phone again: the form says so and nothing is added.
  await page.getByRole("button", { name: "Add contact" }).click();
  await dialog.getByLabel("Phone number").fill("+34 612 000 104");
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(dialog.getByRole("alert")).toContainText("already exists");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(count).toHaveText("4 contacts");

  // Filtered: the total stays, the matching count follows the search.
  await page.getByLabel("Search").fill("Mateo");
  await page.getByLabel("Search").press("Enter");
  await expect(count).toHaveText("4 contacts · 1 matching");

  // Column chooser: friendly labels, the choice survives a reload.
  await page.goto("/contacts");
  await expect(table.getByRole("columnheader", { name: "First name" })).toBeVisible();
  await page.getByRole("button", { name: "Columns" }).click();
  await page.getByRole("menuitemcheckbox", { name: "First name" }).click();
  await page.keyboard.press("Escape");
  await expect(table.getByRole("columnheader", { name: "First name" })).toHaveCount(0);
  await expect(table.getByRole("columnheader", { name: "Loyalty tier" })).toBeVisible();
  await page.reload();
  await expect(table.getByRole("columnheader", { name: "Loyalty tier" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "First name" })).toHaveCount(0);
  await shoot(page, "contacts");

  // A list: add by hand.
  await page.goto("/contacts/lists");
  await page.getByRole("link", { name: "VIP" }).click();
  await expect(page.getByRole("heading", { name: "VIP" })).toBeVisible();
  await expect(page.getByText("0 contacts")).toBeVisible();
  await page.getByRole("button", { name: "Add contacts" }).click();
  const picker = page.getByRole("dialog", { name: "Add contacts" });
  await picker.getByLabel("Search contacts").fill("Pau");
  await expect(picker.getByRole("checkbox")).toHaveCount(1);
  await audit(page, "add-members-dialog", reports, { screenshot: false });
  await picker.getByRole("checkbox").check();
  await picker.getByRole("button", { name: "Add 1 to list" }).click();
  await expect(picker).toBeHidden();
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row", { name: /\+34612000103/ })).toBeVisible();
  await expect(page.getByText("1 contact", { exact: true })).toBeVisible();
  await waitForToastsToClose(page);

  // From the segment: the three of Madrid (the added one included) join, once.
  for (const expected of ["3 contacts added.", "Everyone was already in the list."]) {
    await page.getByRole("button", { name: "Add from segment" }).click();
    const fromSegment = page.getByRole("dialog", { name: "Add from segment" });
    await fromSegment.getByLabel("Segment").selectOption({ label: "Madrid (3)" });
    await fromSegment.getByRole("button", { name: "Add segment's contacts" }).click();
    await expect(page.getByText(expected)).toBeVisible();
    await expect(page.getByText("4 contacts", { exact: true })).toBeVisible();
  }
  await expect(members.locator("tbody tr")).toHaveCount(4);
  await shoot(page, "list");
  await audit(page, "list-detail", reports, { screenshot: false });

  // Remove one by its row, then two ticked.
  await members.getByRole("button", { name: "Remove +34612000103 from the list" }).click();
  await expect(page.getByText("3 contacts", { exact: true })).toBeVisible();
  await members.getByLabel("Select +34612000101").check();
  await members.getByLabel("Select +34612000102").check();
  await page.getByRole("button", { name: "Remove selected (2)" }).click();
  await expect(page.getByText("1 contact", { exact: true })).toBeVisible();
  await expect(members.locator("tbody tr")).toHaveCount(1);
  await expect(members.getByRole("row", { name: /\+34612000104/ })).toBeVisible();
  expectNoViolations(reports);
});
