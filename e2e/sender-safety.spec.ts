import { expect, type Page } from "@playwright/test";
import { createApiKeyThroughUi, deployOrderCampaign, openDefaultSender, screenshotsAtBothWidths, signUpNewUser, test } from "./fixtures";

/** The sandbox fails this reserved number at once with 131026 (lib/channels/sandbox/index.ts). */
const UNDELIVERABLE = "+447700131026";
const CAMPAIGN = "Sender safety";

/** The numbers of one campaign row of the campaigns list: Sent, Delivered, Failed (Replied sits between them). */
async function listedCounts(page: Page) {
  await page.goto("/campaigns");
  const row = page.getByRole("row").filter({ hasText: CAMPAIGN });
  const cells = row.getByRole("cell");
  return [await cells.nth(5).innerText(), await cells.nth(6).innerText(), await cells.nth(8).innerText()];
}

test("a failing sender is confirmed before saving, warned about on every page, and the counts agree everywhere", async ({ page, playwright, baseURL }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpNewUser(page, { workspace: "Safety Shop" });
  const campaignId = await deployOrderCampaign(page, CAMPAIGN);
  const key = await createApiKeyThroughUi(page, "Safety e2e");
  const api = await playwright.request.newContext({ baseURL });
  const trigger = async (phones: string[]) => {
    const response = await api.post(`/api/campaigns/${campaignId}/trigger`, {
      headers: { "x-api-key": key },
      data: phones.map((phone, i) => ({ phone, name: `Customer ${i + 1}`, order_number: `A-${i + 1}` })),
    });
    expect(response.status()).toBe(202);
  };

  // Five messages through the sandbox: three are read, two fail.
  await trigger(["+14155552671", "+14155552672", "+14155552673", UNDELIVERABLE, UNDELIVERABLE]);
  await expect
    .poll(
      async () => {
        await page.goto(`/campaigns/${campaignId}/logs`);
        return [await page.getByTestId("count-read").innerText(), await page.getByTestId("count-failed").innerText()];
      },
      { timeout: 60_000, intervals: [1_000, 2_000] },
    )
    .toEqual(["3", "2"]);

  // One cumulative funnel: a read message was also sent and delivered, on the logs, the list and the campaign page.
  for (const [status, count] of [["queued", "0"], ["sent", "3"], ["delivered", "3"], ["read", "3"], ["failed", "2"]] as const) {
    await expect(page.getByTestId(`count-${status}`)).toHaveText(count);
  }
  await page.getByRole("link", { name: "Sent 3 — show messages sent, delivered or read" }).click();
  await expect(page.getByRole("table", { name: "Messages" }).locator("tbody tr[data-message-id]")).toHaveCount(3);
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("sent,delivered,read");

  expect(await listedCounts(page)).toEqual(["3", "3", "2"]);

  await page.goto(`/campaigns/${campaignId}`);
  const delivery = page.getByRole("region", { name: "Delivery" });
  for (const [step, count] of [["sent", "3"], ["delivered", "3"], ["read", "3"], ["failed", "2"]] as const) {
    await expect(delivery.getByTestId(`funnel-${step}`)).toHaveText(count);
  }
  const perDay = delivery.getByRole("table", { name: "Messages per day, last 7 days (UTC)" });
  await expect(perDay.getByRole("row")).toHaveCount(8);
  // Today: five messages, three sent, two failed.
  await expect(perDay.getByRole("row").last().getByRole("cell")).toHaveText(["5", "3", "2"]);
  await expect(page.getByRole("alert").filter({ hasText: "Fix in Settings" })).toHaveCount(0);

  // Cloud API credentials whose test failed: Save asks, and Cancel keeps the sandbox.
  await openDefaultSender(page);
  await page.getByText("WhatsApp Cloud API", { exact: true }).click();
  await page.getByLabel("Phone number ID").fill("106540352242922");
  await page.getByLabel("WhatsApp Business Account ID").fill("102290129340398");
  await page.getByLabel("Access token").fill("EAAG-secret-token-9876");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Could not reach the WhatsApp Cloud API" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Save settings" }).click();
  const ask = page.getByRole("alertdialog", { name: "Save settings that failed the connection test?" });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText("No messages of the current sender are queued, so none will fail.");
  await screenshotsAtBothWidths(page, "sender-safety-confirm");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toBeHidden();
  await page.reload();
  await expect(page.getByText("Messages are simulated.")).toBeVisible();

  // Saved anyway: new messages cannot go out, and the campaigns list and the campaign page say so.
  await page.getByText("WhatsApp Cloud API", { exact: true }).click();
  await expect(page.getByLabel("Phone number ID")).toHaveValue("");
  await page.getByLabel("Phone number ID").fill("106540352242922");
  await page.getByLabel("WhatsApp Business Account ID").fill("102290129340398");
  await page.getByLabel("Access token").fill("EAAG-secret-token-9876");
  await page.getByRole("button", { name: "Save settings" }).click();
  await page.getByRole("alertdialog", { name: "Save settings without testing the connection?" }).getByRole("button", { name: "Save anyway" }).click();
  await expect(page.getByText("WhatsApp settings saved")).toBeVisible();
  await trigger(["+14155552674", "+14155552675"]);

  const banner = page.getByRole("alert").filter({ hasText: "Fix in Settings" });
  await expect
    .poll(
      async () => {
        await page.goto("/campaigns");
        return banner.count();
      },
      { timeout: 60_000, intervals: [1_000, 2_000] },
    )
    .toBe(1);
  await expect(banner).toContainText("The last sends through your WhatsApp number “Sandbox” failed");
  // The link opens the failing sender's own settings.
  await expect(banner.getByRole("link", { name: "Fix in Settings → WhatsApp" })).toHaveAttribute("href", /^\/settings\/whatsapp\/snd_/);
  await page.goto(`/campaigns/${campaignId}`);
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(/2 messages are waiting/);
  await screenshotsAtBothWidths(page, "sender-safety-campaign");
  await page.goto(`/campaigns/${campaignId}/logs`);
  await expect(banner).toBeVisible();

  // Switching back asks and says what happens to the queued messages; they fail, never "read" by the sandbox.
  await banner.getByRole("link", { name: "Fix in Settings → WhatsApp" }).click();
  await page.getByRole("group").getByText("Sandbox", { exact: true }).click();
  await page.getByRole("button", { name: "Save settings" }).click();
  const switchBack = page.getByRole("alertdialog", { name: "Switch to the sandbox?" });
  await expect(switchBack).toContainText(/2 messages of the current sender are still queued/);
  await expect(switchBack).toContainText("sender changed");
  await switchBack.getByRole("button", { name: "Switch to the sandbox" }).click();
  await expect(page.getByText("Using the sandbox sender")).toBeVisible();

  await expect
    .poll(
      async () => {
        await page.goto(`/campaigns/${campaignId}/logs`);
        return Promise.all(["queued", "sent", "read", "failed"].map((s) => page.getByTestId(`count-${s}`).innerText()));
      },
      { timeout: 60_000, intervals: [1_000, 2_000] },
    )
    .toEqual(["0", "3", "3", "4"]);
  await expect(page.getByRole("table", { name: "Messages" })).toContainText(/sender changed from WhatsApp/i);
  expect(await listedCounts(page)).toEqual(["3", "3", "4"]);
  await expect(page.getByRole("alert").filter({ hasText: "Fix in Settings" })).toHaveCount(0);
  await api.dispose();
});
