import fs from "node:fs";
import { expect, test, type Locator } from "@playwright/test";
import { ARTIFACTS, expectFitsPhone } from "./checks";
import { buildOrderCampaign, signInAsDemo, signUpNewUser } from "./fixtures";

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
