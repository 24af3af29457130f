import { expect } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver, type WebhookReceiver } from "../lib/testing/webhook-receiver";
import { audit, expectFitsPhone, expectNoViolations, type PageReport } from "./checks";
import { createApiKeyThroughUi, deployOrderCampaign, screenshotsAtBothWidths, signUpNewUser, test, waitForToastsToClose } from "./fixtures";

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test("add an endpoint, send a test event, see it delivered in the log, resend it", async ({ page }) => {
  const reports: PageReport[] = [];
  await signUpNewUser(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No webhook endpoints yet")).toBeVisible();

  await page.getByRole("button", { name: "Add endpoint" }).click();
  const form = page.getByRole("dialog", { name: "Add endpoint" });
  await form.getByLabel("Endpoint URL").fill("not a url");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText(/Enter a full URL/)).toBeVisible();
  await form.getByLabel("Endpoint URL").fill(receiver.url);
  await form.getByLabel("Description (optional)").fill("Order system");
  await form.getByRole("checkbox", { name: /contact\.opted_out/ }).check();
  await audit(page, "webhook-endpoint-form", reports);
  await form.getByRole("button", { name: "Add endpoint" }).click();

  const reveal = page.getByRole("dialog", { name: "Save the signing secret" });
  await expect(reveal).toBeVisible();
  const secret = await reveal.getByLabel("Signing secret").inputValue();
  expect(secret).toMatch(/^whsec_/);
  await reveal.getByRole("button", { name: /^Copy/ }).click();
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toHaveCount(0);

  const endpoints = page.getByRole("table", { name: "Webhook endpoints" });
  const row = endpoints.getByRole("row", { name: new RegExp(receiver.url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")) });
  await expect(row).toContainText("5 events");
  await expect(row).toContainText("Enabled");
  await audit(page, "webhooks", reports);
  await screenshotsAtBothWidths(page, "webhooks");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(page, "webhooks");
  await page.setViewportSize({ width: 1280, height: 720 });

  await row.getByRole("link", { name: receiver.url }).click();
  await expect(page.getByRole("heading", { name: receiver.url, level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Subscribed events" }).getByRole("listitem")).toHaveCount(5);
  await expect(page.getByText("No deliveries yet")).toBeVisible();

  await page.getByRole("button", { name: "Send test event" }).click();
  const log = page.getByRole("table", { name: "Deliveries" });
  const delivered = log.getByRole("row").filter({ hasText: "webhook.test" });
  // Queued by the request, sent right after its response; the log refreshes by itself.
  await expect(delivered).toContainText("Delivered");
  await expect(delivered).toContainText("200");
  expect(receiver.received).toHaveLength(1);
  const received = receiver.received[0]!;
  const event = new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as { type: string; data: { endpointId: string } };
  expect(event.type).toBe("webhook.test");

  await delivered.getByRole("button", { name: /^Details of webhook\.test delivery/ }).click();
  await expect(page.getByRole("heading", { name: "Request body" })).toBeVisible();
  await expect(page.getByText(`"endpointId": "${event.data.endpointId}"`)).toBeVisible();
  await waitForToastsToClose(page);
  await audit(page, "webhook-endpoint", reports);
  await screenshotsAtBothWidths(page, "webhook-endpoint");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(page, "webhook-endpoint");
  await page.setViewportSize({ width: 1280, height: 800 });

  await waitForToastsToClose(page);
  await page.getByRole("button", { name: "Resend" }).click();
  await expect(log.getByRole("row").filter({ hasText: "webhook.test" }).filter({ hasText: "Delivered" })).toHaveCount(2);
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received[1]!.headers["webhook-id"]).toBe(received.headers["webhook-id"]);

  // Switched off: test events are refused until it is on again.
  await page.getByRole("button", { name: "More endpoint actions" }).click();
  await page.getByRole("menuitem", { name: "Switch off" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This endpoint is switched off" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
  await page.getByRole("alert").getByRole("button", { name: "Switch on" }).click();
  await expect(page.getByRole("button", { name: "Send test event" })).toBeEnabled();
  expectNoViolations(reports);
});

test("the built-in test endpoint shows a message event it received, with its signature verified", async ({ page }) => {
  const reports: PageReport[] = [];
  await signUpNewUser(page);
  const key = await createApiKeyThroughUi(page);
  await page.goto("/campaigns");
  const campaignId = await deployOrderCampaign(page);

  // The test endpoint needs no URL (and no private-URL access: this server allows it, the integration tests prove the rest).
  await page.goto("/settings/webhooks");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const form = page.getByRole("dialog", { name: "Add endpoint" });
  await expect(form.getByText(/WEBHOOKS_ALLOW_PRIVATE_URLS=true/)).toBeVisible();
  await form.getByRole("checkbox", { name: /Use a test endpoint/ }).check();
  await expect(form.getByLabel("Endpoint URL")).toHaveCount(0);
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const reveal = page.getByRole("dialog", { name: "Save the signing secret" });
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toHaveCount(0);
  await page.getByRole("table", { name: "Webhook endpoints" }).getByRole("link", { name: "Built-in test endpoint" }).click();
  await expect(page.getByRole("heading", { name: "Built-in test endpoint", level: 1 })).toBeVisible();
  await expect(page.getByText("Nothing received yet")).toBeVisible();

  const sent = await page.request.post(`/api/campaigns/${campaignId}/trigger`, {
    headers: { "x-api-key": key },
    data: { phone: "+14155552671", name: "Ada", order_number: "A-1" },
  });
  expect(sent.status()).toBe(202);
  const received = page.getByRole("list", { name: "Received events" });
  const event = received.getByRole("listitem").filter({ hasText: "message.sent" });
  await expect(event).toContainText("Signature verified", { timeout: 15_000 });
  await event.locator("summary").click();
  await expect(event.getByText("webhook-signature")).toBeVisible();
  await expect(event.getByLabel(/^Body of message\.sent/)).toContainText('"type": "message.sent"');
  await waitForToastsToClose(page);
  await audit(page, "webhook-test-endpoint", reports);
  await screenshotsAtBothWidths(page, "webhook-test-endpoint");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(page, "webhook-test-endpoint");
  expectNoViolations(reports);
});
