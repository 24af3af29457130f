import { expect, type Page } from "@playwright/test";
import { openDefaultSender, signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

async function createCampaign(page: Page, name: string) {
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New campaign" });
  await dialog.getByLabel("Campaign name").fill(name);
  await dialog.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  return page.url().split("/").pop()!;
}

test("build, deploy, pause, edit and resume a trigger campaign", async ({ page }) => {
  await signUpNewUser(page, { workspace: "Demo Shop" });
  await expect(page.getByText("No campaigns yet")).toBeVisible();
  const id = await createCampaign(page, "Order confirmation");
  await expect(page.getByTestId("campaign-status")).toHaveText("Draft");

  // Trigger node: the phone mapping is there by default; add name and order_number.
  await expect(page.getByLabel("Phone number field")).toHaveValue("phone");
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Request field 1").fill("name");
  await page.getByLabel("Request field 1").blur();
  await expect(page.getByLabel("Contact attribute 1")).toHaveValue("name");
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Request field 2").fill("order_number");
  await page.getByLabel("Request field 2").blur();
  await expect(page.getByLabel("Contact attribute 2")).toHaveValue("order_number");
  await expect(page.getByTestId("sample-payload")).toContainText('"order_number": "A-10482"', { useInnerText: false });

  // A duplicate field name is flagged once the box is left.
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Request field 3").fill("name");
  await page.getByLabel("Request field 3").blur();
  await expect(page.getByText('The field "name" is listed twice.')).toBeVisible();
  await page.getByRole("button", { name: "Remove field 3" }).click();

  // Message node: pending templates are listed but disabled.
  const picker = page.getByLabel("Template", { exact: true });
  await expect(picker.locator("option", { hasText: "spring_sale" })).toBeDisabled();
  await picker.selectOption({ label: "order_confirmation · en_US · utility" });
  await page.getByLabel("Attribute for Body {{1}}").selectOption("name");
  await page.getByLabel("Attribute for Body {{2}}").selectOption("order_number");

  const bubble = page.getByTestId("whatsapp-bubble");
  await expect(bubble).toContainText("Order confirmed");
  await expect(bubble).toContainText("Hi Maria, thanks for your order! Your order number is A-10482.");
  await page.screenshot({ path: `${shots}/campaigns-builder.png`, fullPage: true });

  // Deploy: saves, goes live, shows limits, both URLs and a curl example.
  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  await expect(live).toBeVisible();
  await expect(live.getByText("Sandbox — unlimited")).toBeVisible();
  await expect(live.getByText("80 messages / second")).toBeVisible();
  await expect(live.getByText("600 requests / minute")).toBeVisible();
  await expect(live.getByTestId("webhook-trigger")).toHaveText(new RegExp(`/api/campaigns/${id}/trigger$`));
  await expect(live.getByTestId("webhook-outbound")).toHaveText(new RegExp(`/outbound/${id}$`));
  const curl = live.getByTestId("curl-example");
  await expect(curl).toContainText("x-api-key: <API_KEY>");
  await expect(curl).toContainText(`'{"phone":"+14155552671","name":"Maria","order_number":"A-10482"}'`);
  await live.getByRole("button", { name: "Copy trigger url" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/api/campaigns/${id}/trigger$`));
  await page.screenshot({ path: `${shots}/campaigns-deployed.png`, fullPage: true });
  await live.getByRole("button", { name: "Done" }).click();
  await expect(live).toBeHidden();
  const triggerUrl = await page.getByTestId("webhook-trigger").textContent();

  // Active: still editable (as a draft that goes live on publish; e2e/live-edit.spec.ts), no Deploy.
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  await expect(page.getByText("This campaign is live.")).toBeVisible();
  await expect(page.getByLabel("Request field 1")).toBeEnabled();
  await expect(page.getByRole("button", { name: "Deploy" })).toHaveCount(0);

  // Pause (confirmed) → edit → save → resume; the webhook URL does not change.
  await page.getByRole("button", { name: "Pause" }).click();
  await page.getByRole("alertdialog", { name: "Pause this campaign?" }).getByRole("button", { name: "Pause campaign" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Paused");
  await page.getByLabel("Fallback for Body {{1}}").fill("there");
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  await expect(page.getByTestId("webhook-trigger")).toHaveText(triggerUrl!);

  // The edit survived a reload, and the list shows the campaign.
  await page.reload();
  await expect(page.getByLabel("Fallback for Body {{1}}")).toHaveValue("there");
  await page.getByRole("link", { name: "Campaigns" }).first().click();
  const row = page.getByRole("row", { name: /Order confirmation/ });
  await expect(row).toContainText("Active");
  await expect(row).toContainText("order_confirmation");
  await page.screenshot({ path: `${shots}/campaigns-list.png`, fullPage: true });
});

test("deploy lists every failing check next to its node", async ({ page }) => {
  await signUpNewUser(page);
  await createCampaign(page, "Shipping update");
  const picker = page.getByLabel("Template", { exact: true });
  await picker.selectOption({ label: "shipping_update · en_US · utility" });
  // Named template: first_name is guessed from the built-in name attribute; the other two are left open.
  await expect(page.getByLabel("Attribute for Body {{first_name}}")).toHaveValue("name");
  await page.getByRole("button", { name: "Deploy" }).click();
  const problems = page.getByRole("list", { name: "Problems to fix" });
  await expect(page.getByText("Body {{order_number}} needs a contact attribute or a fallback value.")).toBeVisible();
  await expect(page.getByText("Button 1 link ending {{tracking_id}} needs a contact attribute or a fallback value.")).toBeVisible();
  await expect(problems).toHaveCount(0);
  await expect(page.getByTestId("campaign-status")).toHaveText("Draft");
  await page.screenshot({ path: `${shots}/campaigns-checks.png`, fullPage: true });

  await page.getByLabel("Fallback for Body {{order_number}}").fill("your order");
  await page.getByLabel("Fallback for Button 1 link ending {{tracking_id}}").fill("latest");
  // "name" is not sent by this trigger, so the preview marks it as coming from the stored contact.
  await expect(page.getByTestId("whatsapp-bubble")).toContainText("Good news, [name]! Your order your order is on its way.");
  await page.getByRole("button", { name: "Deploy" }).click();
  await expect(page.getByRole("dialog", { name: "Your campaign is live" })).toBeVisible();
});

test("WhatsApp settings keep secrets masked and the sandbox is the default", async ({ page }) => {
  await signUpNewUser(page);
  await page.goto("/settings/whatsapp");
  const sandboxRow = page.getByRole("table").getByRole("row", { name: /Sandbox/ });
  await expect(sandboxRow).toContainText("Default");
  await expect(sandboxRow).toContainText("Connected");
  await openDefaultSender(page);
  await expect(page.getByText("Messages are simulated.")).toBeVisible();
  await page.getByText("WhatsApp Cloud API", { exact: true }).click();
  await page.getByLabel("Phone number ID").fill("106540352242922");
  await page.getByLabel("WhatsApp Business Account ID").fill("102290129340398");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Paste the access token of your system user.")).toBeVisible();
  await page.getByLabel("Access token").fill("EAAG-secret-token-9876");
  await page.getByRole("button", { name: "Save settings" }).click();
  await page.getByRole("alertdialog", { name: "Save settings without testing the connection?" }).getByRole("button", { name: "Save anyway" }).click();
  await expect(page.getByText("Saved (••••9876). Leave blank to keep it.")).toBeVisible();
  await expect(page.getByLabel("Access token")).toHaveValue("");
  await page.screenshot({ path: `${shots}/campaigns-sender.png`, fullPage: true });
  await openDefaultSender(page);
  await expect(page.getByText("Saved (••••9876). Leave blank to keep it.")).toBeVisible();
  expect(await page.content()).not.toContain("EAAG-secret-token");
});
