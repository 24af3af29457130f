import { expect, type Page } from "@playwright/test";
import { audit, expectNoViolations, type PageReport } from "./checks";
import { createApiKeyThroughUi, screenshotsAtBothWidths, signUpNewUser, test, waitForToastsToClose } from "./fixtures";

const PHONE_A = "+14155550141";
const PHONE_B = "+14155550142";

async function newCampaign(page: Page, name: string): Promise<string> {
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New campaign" });
  await dialog.getByLabel("Campaign name").fill(name);
  await dialog.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  return page.url().split("/").pop()!;
}

/** The abandoned-cart preset, its first wait cut to `seconds`, the code reminder sending shipping_update with its blanks filled. */
async function buildAbandonedCart(page: Page, seconds: number) {
  await page.getByRole("button", { name: "Use the abandoned cart preset" }).click();
  const flow = page.getByRole("region", { name: "Steps after the trigger" });
  for (const step of ["Wait an hour", "Cart reminder", "Wait for it to be read", "Still not read?", "Reminder with a code"]) {
    await expect(flow.getByRole("heading", { name: step, level: 3 })).toBeVisible();
  }
  // The branch is reached from both ways out of the wait: drawn once, linked from the other.
  await expect(flow.getByRole("link", { name: "Continues at “Still not read?”" })).toBeVisible();
  // The trigger maps the preset's fields.
  await expect(page.getByLabel("Request field 1")).toHaveValue("first_name");
  await expect(page.getByLabel("Request field 3")).toHaveValue("cart_id");
  await expect(flow.getByText("A placeholder template from the preset")).toHaveCount(2);

  await flow.getByRole("button", { name: "Edit Wait an hour" }).click();
  await flow.getByLabel("Wait for: unit").selectOption("seconds");
  await flow.getByLabel("Wait for", { exact: true }).fill(String(seconds));
  await flow.getByLabel("Step name").fill("Wait a moment");
  await expect(flow.getByRole("heading", { name: "Wait a moment", level: 3 })).toBeVisible();
  await expect(flow.getByText(`Waits ${seconds} seconds`)).toBeVisible();

  // Choosing a template with blanks the trigger does not fill shows the problem on the node, until filled.
  await flow.getByRole("button", { name: "Edit Reminder with a code" }).click();
  await flow.getByLabel("Template", { exact: true }).selectOption({ label: "shipping_update · en_US · utility" });
  const problems = flow.getByRole("list", { name: "Problems on Reminder with a code" });
  await expect(problems).toContainText("Fill body.order_number");
  await flow.getByLabel("Fallback for Body {{order_number}}").fill("CART10");
  await flow.getByLabel("Attribute for Button 1 link ending {{tracking_id}}").selectOption("cart_id");
  await expect(problems).toHaveCount(0);
  await expect(flow.getByText("A placeholder template from the preset")).toHaveCount(1);

  const settings = page.getByRole("region", { name: "Exit, entry and goal" });
  await expect(settings.getByLabel("Event name").first()).toHaveValue("order_placed");
  await expect(settings.getByLabel("Re-entry")).toHaveValue("once_per_period");
  await expect(settings.getByLabel("Period (days)")).toHaveValue("7");
  await expect(settings.getByLabel("Conversion goal")).toHaveValue("event");
}

test("the abandoned-cart preset builds a journey the builder draws, previews and validates", async ({ page }) => {
  await signUpNewUser(page, { workspace: "Cart Shop" });
  await newCampaign(page, "Cart recovery");
  await buildAbandonedCart(page, 5);
  const flow = page.getByRole("region", { name: "Steps after the trigger" });

  // Adding a step under a node, then deleting it, reconnects the flow.
  await flow.getByRole("button", { name: "Add a step after Cart reminder" }).click();
  await page.getByRole("menuitem", { name: "Update contact" }).click();
  await expect(flow.getByRole("heading", { name: "Update contact", level: 3 })).toBeVisible();
  await expect(flow.getByRole("list", { name: "Problems on Update contact" })).toBeVisible();
  await flow.getByRole("button", { name: "Delete Update contact" }).click();
  await page.getByRole("alertdialog", { name: "Delete “Update contact”?" }).getByRole("button", { name: "Delete step" }).click();
  await expect(flow.getByRole("heading", { name: "Update contact", level: 3 })).toHaveCount(0);
  await expect(flow.getByRole("heading", { name: "Wait for it to be read", level: 3 })).toBeVisible();

  // The path preview decides what the example can decide, and renders the messages on the way.
  const preview = page.getByRole("region", { name: "Preview a path" });
  await expect(preview.getByText("Goes on “When it happens”")).toBeVisible();
  await expect(preview.getByRole("figure", { name: "Message preview" }).first()).toContainText("Hi Maria");

  const reports: PageReport[] = [];
  await audit(page, "journey-builder", reports);
  expectNoViolations(reports);
  await screenshotsAtBothWidths(page, "journey-builder");

  // On a phone the ways stack and each folds away.
  await page.setViewportSize({ width: 390, height: 844 });
  const timeout = flow.getByRole("button", { name: "On timeout", exact: true });
  await timeout.click();
  await expect(timeout).toHaveAttribute("aria-expanded", "false");
  await expect(flow.getByRole("link", { name: "Continues at “Still not read?”" })).toBeHidden();
});

test("a deployed abandoned-cart journey reminds the contact who did not order, and not the one whose order ended the run", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Cart Journeys" });
  const campaignId = await newCampaign(page, "Abandoned cart");

  await buildAbandonedCart(page, 5);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await waitForToastsToClose(page);
  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  await expect(live).toBeVisible();
  await live.getByRole("button", { name: "Done" }).click();

  const key = await createApiKeyThroughUi(page, "Shop backend");
  const api = await playwright.request.newContext({ baseURL });
  const headers = { "x-api-key": key };
  for (const phone of [PHONE_A, PHONE_B]) {
    const accepted = await api.post(`/api/campaigns/${campaignId}/trigger`, { headers, data: { phone, first_name: "Maria", cart_url: "https://shop.example.com/cart/1", cart_id: "c1" } });
    expect(accepted.status(), await accepted.text()).toBeLessThan(300);
  }
  const exit = await api.post("/api/v1/events", { headers, data: { name: "order_placed", phone: PHONE_B, properties: { order_id: "o1" } } });
  expect(exit.status(), await exit.text()).toBeLessThan(300);

  // After the wait, A gets the cart reminder; B's run ended with the order, so B gets nothing.
  await page.goto(`/campaigns/${campaignId}/logs`);
  const table = page.getByRole("table", { name: "Messages" });
  await expect(async () => {
    await page.reload();
    await expect(table.getByRole("row").filter({ hasText: PHONE_A })).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 60_000, intervals: [1000] });
  await expect(table.getByRole("row").filter({ hasText: PHONE_B })).toHaveCount(0);

  // The builder shows the live counts on the nodes.
  await page.goto(`/campaigns/${campaignId}`);
  const counts = page.getByRole("group", { name: "Live counts for Wait a moment" });
  await expect(counts).toContainText(/entered\s*2/, { timeout: 15_000 });
  await screenshotsAtBothWidths(page, "journey-live");

  // A test run of the journey for one phone, its waits compressed.
  await page.getByRole("button", { name: "Test journey" }).click();
  const dialog = page.getByRole("dialog", { name: "Test journey" });
  await dialog.getByLabel("Phone number").fill("+14155550143");
  await expect(dialog.getByLabel("Example request body")).toHaveValue(/cart_url/);
  await dialog.getByLabel("Compress waits").selectOption({ label: "1 hour = 1 second" });
  await dialog.getByRole("button", { name: "Start test run" }).click();
  await expect(dialog.getByRole("status")).toContainText("Test run");
});
