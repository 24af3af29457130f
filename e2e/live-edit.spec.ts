import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKeyThroughUi, deployOrderCampaign, signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

/** Serious or critical WCAG 2.1 AA findings inside the given parts of the page (ids and where). */
async function axeFindings(page: Page, selectors: string[]): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  for (const selector of selectors) builder = builder.include(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

/** Triggers the campaign for real and returns the text of the message it queued (from the messages API). */
async function triggeredText(api: APIRequestContext, campaignId: string, key: string): Promise<string> {
  const accepted = await api.post(`/api/campaigns/${campaignId}/trigger`, {
    headers: { "x-api-key": key },
    data: { phone: "+14155552671", name: "Maria", order_number: "A-10482" },
  });
  expect(accepted.status()).toBe(202);
  const message = await api.get(accepted.headers()["location"]!, { headers: { "x-api-key": key } });
  expect(message.status()).toBe(200);
  return ((await message.json()) as { text: string }).text;
}

test("edit a live campaign as a draft, publish it without a pause; archive, find it under Archived and unarchive", async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpNewUser(page, { workspace: "Live Edit Shop" });
  const campaignId = await deployOrderCampaign(page, "Order confirmation");
  const key = await createApiKeyThroughUi(page, "Shop backend");
  const api = await playwright.request.newContext({ baseURL });
  expect(await triggeredText(api, campaignId, key)).toContain("Hi Maria, thanks for your order!");

  // Edit the live campaign: another template with other text. Saving makes a draft revision.
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByText("This campaign is live.")).toBeVisible();
  // The builder must be hydrated before a select is changed, or React puts the server value back.
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "shipping_update · en_US · utility" });
  await expect(page.getByLabel("Attribute for Body {{first_name}}")).toHaveValue("name");
  await page.getByLabel("Attribute for Body {{order_number}}").selectOption("order_number");
  await page.getByLabel("Fallback for Button 1 link ending {{tracking_id}}").fill("latest");
  await expect(page.getByTestId("whatsapp-bubble")).toContainText("Good news, Maria! Your order A-10482 is on its way.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved — the webhook keeps sending the live version until you publish.")).toBeVisible();

  const revision = page.getByRole("region", { name: "Editing a draft of a live campaign" });
  await expect(revision).toBeVisible();
  const changes = revision.getByRole("list", { name: "Changes from the live version" });
  await expect(changes).toContainText("Template: order_confirmation (en_US) → shipping_update (en_US)");
  await expect(changes).toContainText("Template variables");
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  expect(await axeFindings(page, ['section[aria-labelledby="revision-title"]', "header"])).toEqual([]);
  await page.screenshot({ path: `${shots}/live-edit-revision-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/live-edit-revision-390.png`, fullPage: true });
  await revision.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/live-edit-revision-390-banner.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The webhook still sends the live version, and nothing is refused.
  expect(await triggeredText(api, campaignId, key)).toContain("Hi Maria, thanks for your order!");

  // The draft survives a reload; publishing swaps it in.
  await page.reload();
  await expect(revision).toBeVisible();
  await revision.getByRole("button", { name: "Publish changes" }).click();
  await expect(page.getByText("Changes published — the webhook now sends the new version.")).toBeVisible();
  await expect(revision).toBeHidden();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  expect(await triggeredText(api, campaignId, key)).toContain("Good news, Maria! Your order A-10482 is on its way.");

  // Another edit, saved and then discarded (after a confirmation): the live version stays.
  await page.getByLabel("Fallback for Body {{first_name}}").fill("friend");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(revision.getByRole("list", { name: "Changes from the live version" })).toContainText('Body {{first_name}}: name → name, fallback "friend"');
  await revision.getByRole("button", { name: "Discard changes" }).click();
  await page.getByRole("alertdialog", { name: "Discard the draft changes?" }).getByRole("button", { name: "Discard changes" }).click();
  await expect(page.getByText("Draft changes discarded — the live version is unchanged.")).toBeVisible();
  await expect(revision).toBeHidden();
  await expect(page.getByLabel("Fallback for Body {{first_name}}")).toHaveValue("");

  // Pausing asks first and says what happens to calls.
  await page.getByRole("button", { name: "Pause" }).click();
  const pause = page.getByRole("alertdialog", { name: "Pause this campaign?" });
  await expect(pause).toContainText("every call to its webhook is rejected");
  expect(await axeFindings(page, ['[role="alertdialog"]'])).toEqual([]);
  await pause.getByRole("button", { name: "Keep it live" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");

  // Archive: gone from the list, found under Archived, unarchived back to a draft.
  await page.getByRole("button", { name: "Archive" }).click();
  await page.getByRole("alertdialog", { name: "Archive this campaign?" }).getByRole("button", { name: "Archive campaign" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Archived");
  await page.goto("/campaigns");
  await expect(page.getByRole("row", { name: /Order confirmation/ })).toHaveCount(0);
  await page.getByRole("navigation", { name: "Campaign status" }).getByRole("link", { name: "Archived" }).click();
  await expect(page).toHaveURL(/status=archived/);
  const row = page.getByRole("row", { name: /Order confirmation/ });
  await expect(row).toContainText("Archived");
  await page.screenshot({ path: `${shots}/live-edit-archived-1280.png` });
  expect(await axeFindings(page, ['nav[aria-label="Campaign status"]', "table"])).toEqual([]);
  await row.getByRole("button", { name: "Actions for Order confirmation" }).click();
  await page.getByRole("menuitem", { name: "Unarchive" }).click();
  await expect(page.getByText("“Order confirmation” is a draft again — open it to edit and deploy.")).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole("link", { name: "All campaigns" }).click();
  await expect(page.getByRole("row", { name: /Order confirmation/ })).toContainText("Draft");
  await api.dispose();
});
