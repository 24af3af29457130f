import fs from "node:fs";
import { expect, type Locator, type Page } from "@playwright/test";
import { ARTIFACTS, expectFitsPhone } from "./checks";
import { buildOrderCampaign, signInAsDemo, signUpNewUser, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 } });

/** A dialog's button can be scrolled to, sits inside the viewport, and takes the click. */
async function reachAndClick(button: Locator) {
  await button.scrollIntoViewIfNeeded();
  await expect(button).toBeInViewport({ ratio: 1 });
  await button.click();
}

test("every main page and dialog fits a 390 px phone", async ({ page }) => {
  test.setTimeout(360_000);
  if (ARTIFACTS) fs.mkdirSync(ARTIFACTS, { recursive: true });

  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: "Sign in" }).first()).toBeVisible();
  await expectFitsPhone(page, "sign-in");
  await page.goto("/sign-up");
  await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
  await expectFitsPhone(page, "sign-up");

  await signUpNewUser(page, { workspace: "Pocket Shop" });
  await expectFitsPhone(page, "campaigns-empty");

  // The builder, then deploying from it: the live dialog scrolls to its Copy and Done buttons.
  const campaignId = await buildOrderCampaign(page, "Order confirmation with a rather long name for a phone");
  await expectFitsPhone(page, "trigger-builder");
  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  await expect(live).toBeVisible();
  if (ARTIFACTS) await page.screenshot({ path: `${ARTIFACTS}/mobile-live-dialog-viewport-390.png` });
  await expectFitsPhone(page, "live-dialog");
  await reachAndClick(live.getByRole("button", { name: "Copy curl command" }));
  await reachAndClick(live.getByRole("button", { name: "Done" }));
  await expect(live).toBeHidden();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  await expectFitsPhone(page, "campaign-live");

  await page.goto(`/campaigns/${campaignId}/logs`);
  await expect(page.getByRole("heading", { name: "No messages yet" })).toBeVisible();
  await expectFitsPhone(page, "campaign-logs");
  await page.goto("/campaigns");
  await expectFitsPhone(page, "campaigns");
  await page.goto("/logs");
  await expectFitsPhone(page, "logs");
  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();
  await expectFitsPhone(page, "contacts");
  await page.goto("/settings/whatsapp");
  await expect(page.getByRole("heading", { name: "WhatsApp", level: 1 })).toBeVisible();
  await expectFitsPhone(page, "whatsapp-settings");

  // API keys: the create dialog's Cancel, then the one-time reveal's Copy and Done.
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("heading", { name: "API Keys", level: 1 })).toBeVisible();
  await expectFitsPhone(page, "api-keys");
  await page.getByRole("button", { name: "Create API key" }).first().click();
  let createKey = page.getByRole("dialog", { name: "Create API key" });
  await expectFitsPhone(page, "create-key-dialog");
  await reachAndClick(createKey.getByRole("button", { name: "Cancel" }));
  await expect(createKey).toBeHidden();
  await page.getByRole("button", { name: "Create API key" }).first().click();
  createKey = page.getByRole("dialog", { name: "Create API key" });
  await createKey.getByLabel("Name").fill("Phone key");
  await reachAndClick(createKey.getByRole("button", { name: "Create", exact: true }));
  const reveal = page.getByRole("dialog", { name: "Save your API key" });
  await expect(reveal).toBeVisible();
  await expectFitsPhone(page, "reveal-key-dialog");
  await reachAndClick(reveal.getByRole("button", { name: /^Copy/ }));
  await reachAndClick(reveal.getByRole("button", { name: "Done" }));
  await expect(reveal).toBeHidden();
  await expectFitsPhone(page, "api-keys-with-key");

  // The menu on phones opens as a drawer that fits too.
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectFitsPhone(page, "menu");
  await page.keyboard.press("Escape");

  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectFitsPhone(page, "docs-api");
  // Field tables stack on a phone: none scrolls sideways inside its own box either.
  const sideways = await page
    .locator('[role="region"]:has(table)')
    .evaluateAll((boxes) => boxes.filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => box.getAttribute("aria-label")));
  expect(sideways).toEqual([]);
});

test("logs on a phone: each message a card with its status badge in view, filters in a sheet", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsDemo(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/logs");
  const list = page.getByRole("list", { name: "Messages", exact: true });
  await expect(list).toBeVisible();
  await expect(page.getByRole("table", { name: "Messages", exact: true })).toHaveCount(0);
  // The first message and its status are on the first screen, without scrolling sideways.
  const first = list.getByRole("listitem").first();
  await expect(first).toBeInViewport();
  await expect(first.locator("[data-slot=badge]").filter({ hasText: /^(Read|Delivered|Sent|Failed|Queued|Skipped)$/ })).toBeInViewport({ ratio: 1 });
  await expectFitsPhone(page, "logs-cards");

  // Filters live in a sheet; the button counts the active ones.
  await page.getByRole("button", { name: "Filters" }).click();
  const sheet = page.getByRole("dialog", { name: "Filter messages" });
  await expect(sheet).toBeVisible();
  await sheet.getByLabel("Status").selectOption({ label: "Failed" });
  await reachAndClick(sheet.getByRole("button", { name: "Apply filters" }));
  await expect(page.getByRole("button", { name: "Filters 1 active" })).toBeVisible();
  const failed = page.getByRole("list", { name: "Messages", exact: true }).getByRole("listitem");
  await expect(failed.first().locator("[data-slot=badge]").filter({ hasText: "Failed" })).toBeInViewport({ ratio: 1 });
  await expect(failed.first().getByText(/undeliverable|restricted/)).toBeVisible();
  await expectFitsPhone(page, "logs-cards-failed");
});

/** The page itself never scrolls sideways: on the 390 px phone, or at the given desktop width. */
async function expectNoSidewaysScroll(page: Page, width = 390) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test("campaign logs on a phone: the server HTML already shows cards, no table flashing before hydration", async ({ browser, page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsDemo(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/logs");
  // A campaign of the demo workspace that has messages: its card links to its logs.
  const campaignLogs = await page.getByRole("list", { name: "Messages", exact: true }).locator('a[href^="/campaigns/"][href$="/logs"]').first().getAttribute("href");
  expect(campaignLogs).toMatch(/^\/campaigns\/cmp_[A-Za-z0-9]+\/logs$/);

  // Without JavaScript the page is the server's HTML as it first paints: cards and the Filters
  // button on a phone, the table and the inline filter form hidden (display: none, so not exposed twice).
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
    storageState: await page.context().storageState(),
    baseURL: test.info().project.use.baseURL,
  });
  const server = await noScript.newPage();
  await server.goto(campaignLogs!);
  await expect(server.getByRole("list", { name: "Messages", exact: true }).getByRole("listitem").first()).toBeVisible();
  await expect(server.getByRole("table", { name: "Messages", exact: true })).toBeHidden();
  await expect(server.getByRole("search", { name: "Filter messages" })).toBeHidden();
  await expect(server.getByRole("button", { name: "Filters" })).toBeVisible();
  await expectNoSidewaysScroll(server);
  await noScript.close();

  // Hydrated, the same: one list of cards named "Messages", no table.
  await page.goto(campaignLogs!);
  const cards = page.getByRole("list", { name: "Messages", exact: true });
  await expect(cards.getByRole("listitem").first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Messages", exact: true })).toHaveCount(0);
  await expectFitsPhone(page, "campaign-logs-cards");
  await expectNoSidewaysScroll(page);
  // The sheet's form has its own field ids: its labels name its own fields.
  await page.getByRole("button", { name: "Filters" }).click();
  const sheet = page.getByRole("dialog", { name: "Filter messages" });
  await expect(sheet.getByLabel("Status")).toBeVisible();
  await expect(sheet.getByLabel("Phone number")).toBeEditable();
  await page.keyboard.press("Escape");

  // At 1280 px it is the table with the inline filters, and no cards.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole("table", { name: "Messages", exact: true }).locator("tbody tr[data-message-id]").first()).toBeVisible();
  await expect(page.getByRole("list", { name: "Messages", exact: true })).toHaveCount(0);
  await expect(page.getByRole("search", { name: "Filter messages" }).getByLabel("Status")).toBeVisible();
  await expectNoSidewaysScroll(page, 1280);
  if (ARTIFACTS) await page.screenshot({ path: `${ARTIFACTS}/desktop-campaign-logs-1280.png`, fullPage: true });
});

test("several senders on a phone: one card per sender with its details, no sideways scroll", async ({ page }) => {
  await signUpNewUser(page, { workspace: "Two Numbers" });
  await page.goto("/settings/whatsapp");
  await page.getByRole("button", { name: "Add sender" }).click();
  const add = page.getByRole("dialog", { name: "Add sender" });
  await add.getByLabel("Name", { exact: true }).fill("Brand France customer care");
  await add.getByLabel("Phone number ID").fill("106540352242922");
  await add.getByLabel("WhatsApp Business Account ID").fill("102290129340398");
  await add.getByLabel("Access token").fill("EAAG-secret-token-9876");
  await reachAndClick(add.getByRole("button", { name: "Add sender" }));
  await expect(page.getByRole("heading", { name: "Brand France customer care", level: 1 })).toBeVisible();

  await page.goto("/settings/whatsapp");
  const senders = page.getByRole("list", { name: "Senders" });
  await expect(senders.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("table")).toHaveCount(0);
  const brand = senders.getByRole("listitem").filter({ hasText: "Brand France customer care" });
  await expect(brand.getByRole("term")).toHaveText(["Provider", "Number", "Throughput", "Quality", "Messaging limit"]);
  await expect(brand.getByRole("definition").first()).toHaveText("WhatsApp Cloud API");
  await expect(brand).toContainText("Not tested");
  await expect(brand.getByRole("link", { name: "Edit Brand France customer care" })).toBeVisible();
  await expect(brand.getByRole("button", { name: "Make default: Brand France customer care" })).toBeVisible();
  await expect(brand.getByRole("button", { name: "Delete Brand France customer care" })).toBeVisible();
  await expectFitsPhone(page, "senders-cards");
  await expectNoSidewaysScroll(page);

  // 1280 px keeps the table, one row per sender.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole("table").getByRole("row", { name: /Brand France customer care/ })).toContainText("Not tested");
  await expect(page.getByRole("list", { name: "Senders" })).toHaveCount(0);
  // The wide table scrolls inside its own box, as before; the page does not.
  await expectNoSidewaysScroll(page, 1280);
  if (ARTIFACTS) await page.screenshot({ path: `${ARTIFACTS}/desktop-senders-1280.png`, fullPage: true });
});

test("contacts on a phone: the table scrolls inside its own box to its last column, the page does not", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsDemo(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/contacts");
  const table = page.getByRole("table", { name: "Contacts" });
  await expect(table.locator("tbody tr[data-contact-id]").first()).toBeVisible();
  await expect(page.getByText("Scroll the table sideways to see every column.")).toBeVisible();
  await expectFitsPhone(page, "contacts-table");
  await expectNoSidewaysScroll(page);

  // The box scrolls (and takes keyboard focus), and its last column comes into view.
  const box = page.getByRole("region", { name: "Contacts table" });
  const { scrollWidth, clientWidth } = await box.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  expect(clientWidth).toBeLessThanOrEqual(390);
  const created = table.getByRole("columnheader", { name: "Created" });
  await expect(created).not.toBeInViewport();
  await box.focus();
  await expect(box).toBeFocused();
  await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(created).toBeInViewport({ ratio: 1 });
  await expectNoSidewaysScroll(page);
  if (ARTIFACTS) await page.screenshot({ path: `${ARTIFACTS}/mobile-contacts-table-scrolled-390.png`, fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(table.locator("tbody tr[data-contact-id]").first()).toBeVisible();
  await expect(page.getByText("Scroll the table sideways to see every column.")).toBeHidden();
  await expectNoSidewaysScroll(page, 1280);
  if (ARTIFACTS) await page.screenshot({ path: `${ARTIFACTS}/desktop-contacts-1280.png`, fullPage: true });
});
