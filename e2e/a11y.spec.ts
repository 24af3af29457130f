import fs from "node:fs";
import { expect } from "@playwright/test";
import { ARTIFACTS, audit, expectNoViolations, type PageReport } from "./checks";
import { createApiKeyThroughUi, deployOrderCampaign, signInAsDemo, signUpNewUser, test } from "./fixtures";

/** Reserved sandbox numbers (lib/channels/sandbox/index.ts): fails at once with 131026; times out on every attempt. */
const UNDELIVERABLE = "+447700131026";
const TIMES_OUT = "+447700100408";

test("the signed-out pages and the API reference have no serious or critical WCAG 2.1 AA violations", async ({ page }) => {
  test.setTimeout(360_000);
  if (ARTIFACTS) fs.mkdirSync(ARTIFACTS, { recursive: true });
  const reports: PageReport[] = [];
  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: "Sign in" }).first()).toBeVisible();
  await audit(page, "sign-in", reports);
  await page.goto("/sign-up");
  await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
  await audit(page, "sign-up", reports);
  // Public, and long: 30-odd code blocks that scroll and must take keyboard focus.
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Every endpoint is the same component over the registry's data (components/docs/objects-section.test.ts renders
  // them all): two groups hold each of its parts (parameters, JSON and CSV bodies, responses with fields or linking to
  // an object). The objects are one component too: the campaign's (nested field tables) stands for them; the
  // campaign page's repeats it. The whole page took axe a minute of a core, twice that beside the other tests;
  // these parts 32 s (46 s with every object, most of it color-contrast).
  await expect(page.locator("#tag-contacts").getByText("text/csv").first()).toBeVisible();
  await audit(page, "docs-api", reports, { screenshot: false, exclude: 'section[id^="tag-"]:not(#tag-contacts):not(#tag-trigger), #objects > section:not(#object-campaign)' });
  expectNoViolations(reports);
});

test("the app's main pages have no serious or critical WCAG 2.1 AA violations", async ({ page, playwright, baseURL }) => {
  test.setTimeout(360_000);
  if (ARTIFACTS) fs.mkdirSync(ARTIFACTS, { recursive: true });
  const reports: PageReport[] = [];

  await signUpNewUser(page, { workspace: "Accessible Shop" });

  // The first Tab reaches a skip link that moves focus past the navigation.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("#main-content")).toBeFocused();

  // The builder of a live campaign.
  const campaignId = await deployOrderCampaign(page, "Order confirmation");
  await audit(page, "trigger-builder", reports);
  await page.goto("/campaigns");
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  await audit(page, "campaigns", reports);

  // Logs with a delivered, a failed and a retried message.
  const key = await createApiKeyThroughUi(page, "Accessibility");
  await audit(page, "api-keys", reports);
  const api = await playwright.request.newContext({ baseURL });
  const accepted = await api.post(`/api/campaigns/${campaignId}/trigger`, {
    headers: { "x-api-key": key },
    data: [
      { phone: "+14155552671", name: "Ada", order_number: "A-1" },
      { phone: UNDELIVERABLE, name: "Nobody", order_number: "A-2" },
      { phone: TIMES_OUT, name: "Later", order_number: "A-3" },
    ],
  });
  expect(accepted.status()).toBe(202);
  await api.dispose();
  await page.goto(`/campaigns/${campaignId}/logs`);
  await expect(page.getByTestId("count-failed")).toHaveText("1", { timeout: 30_000 });
  await page.goto("/logs");
  const table = page.getByRole("table", { name: "Messages" });
  // Between attempts it reads "Retrying · Attempt n of 6 · <reason> · next try at …"; once they run out, Failed.
  await expect(table.locator("tr", { hasText: TIMES_OUT })).toContainText(/Retrying.*Attempt [2-6] of 6 · .+ · (next try at|trying now)|Failed.*Gave up after 6 attempts/);
  await table.getByRole("button", { name: /^Show full message to/ }).first().click();
  await audit(page, "logs", reports);

  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();
  await audit(page, "contacts", reports);
  await page.goto("/templates");
  await expect(page.getByRole("heading", { name: "Templates", level: 1 })).toBeVisible();
  await audit(page, "templates", reports);
  await page.goto("/templates/new");
  await page.getByLabel("Name").fill("Bad Name");
  await page.getByLabel("Body").fill("{{1}} starts the body");
  await expect(page.getByText("A variable cannot start or end the body")).toBeVisible();
  await audit(page, "template-editor", reports);
  await page.goto("/settings/whatsapp");
  await expect(page.getByRole("heading", { name: "WhatsApp", level: 1 })).toBeVisible();
  await audit(page, "whatsapp-settings", reports);
  await page.getByRole("button", { name: "Add sender" }).click();
  await expect(page.getByRole("dialog", { name: "Add sender" })).toBeVisible();
  await audit(page, "whatsapp-add-sender", reports);
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Edit Sandbox" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox", level: 1 })).toBeVisible();
  await audit(page, "whatsapp-sender", reports);
  expectNoViolations(reports);
});

test("the demo workspace's home with its checklist, the audit log, and the logs on a phone have no serious or critical violations", async ({ page }) => {
  const reports: PageReport[] = [];
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsDemo(page);
  await expect(page.getByRole("region", { name: "Get started" })).toBeVisible();
  await audit(page, "home-checklist", reports);
  await page.goto("/settings/audit-log");
  await expect(page.getByRole("table", { name: "Audit log" })).toBeVisible();
  await audit(page, "audit-log", reports);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("list", { name: "Audit log" })).toBeVisible();
  await audit(page, "audit-log-phone", reports, { screenshot: false });
  await page.goto("/logs");
  await expect(page.getByRole("list", { name: "Messages", exact: true })).toBeVisible();
  await page.getByRole("button", { name: /^Show details/ }).first().click();
  await audit(page, "logs-cards", reports, { screenshot: false });
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(page.getByRole("dialog", { name: "Filter messages" })).toBeVisible();
  await audit(page, "logs-filters-sheet", reports, { screenshot: false });
  expectNoViolations(reports);
});
