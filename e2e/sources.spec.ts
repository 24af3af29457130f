import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "@playwright/test";
import { signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

// The documented Shopify orders/create body, as raw text: the signature is over these exact bytes.
// Its customer has no phone, so the shipping address's number (written without +, read with the
// address's country code) is the one the preset's fallbacks reach.
const rawBody = readFileSync(fileURLToPath(new URL("../lib/sources/samples/shopify-orders-create.json", import.meta.url)), "utf8").replace(
  '"phone": "212-555-0147"',
  '"phone": "(415) 555-2671"',
);

test("a Shopify source from the preset: signed deliveries, retries sending once, topic in the request log", async ({ page, playwright, baseURL }) => {
  expect(rawBody).toContain("(415) 555-2671");
  await signUpNewUser(page, { workspace: "Sources Shop" });
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const create = page.getByRole("dialog", { name: "New campaign" });
  await create.getByLabel("Campaign name").fill("Shopify order");
  await create.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const id = page.url().split("/").pop()!;

  // The preset sets the source and its topic, and fills the mapping with nested paths.
  const sourceCard = page.getByRole("group", { name: "Source", exact: true });
  await sourceCard.getByRole("button", { name: "Start from a preset" }).click();
  await page.getByRole("menuitem", { name: "Shopify: order created" }).click();
  await expect(sourceCard.getByLabel("Who calls this webhook")).toHaveValue("shopify");
  await expect(sourceCard.getByRole("list", { name: "Topics" }).getByRole("listitem")).toHaveText(["orders/create"]);
  await expect(sourceCard.getByRole("button", { name: "Remove topic orders/create" })).toBeVisible();
  await expect(page.getByLabel("Phone number field")).toHaveValue("customer.phone");
  await expect(page.getByLabel("Request field 1")).toHaveValue("customer.first_name");
  await expect(page.getByLabel("Contact attribute 1")).toHaveValue("first_name");
  await expect(page.getByLabel("Request field 2")).toHaveValue("name");
  await expect(sourceCard.getByRole("list", { name: "Steps in Shopify" })).toContainText("Settings → Notifications");

  // Generate a secret: shown once, read from the dialog.
  await sourceCard.getByRole("button", { name: "Generate secret" }).click();
  const generate = page.getByRole("dialog", { name: "Generate a signing secret" });
  await generate.getByRole("button", { name: "Generate secret" }).click();
  const reveal = page.getByRole("dialog", { name: "Copy the signing secret" });
  await expect(reveal).toBeVisible();
  await expect(reveal).toContainText("You will not see it again");
  const secret = await reveal.getByLabel("Signing secret").inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(16);
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toHaveCount(0);
  await expect(sourceCard.getByTestId("source-secret-status")).toContainText(secret.slice(-4));

  await page.screenshot({ path: `${shots}/sources-builder-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/sources-builder-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Listening while still a draft: the shop's signed body is answered 409, recorded, and offered as a tree.
  const api = await playwright.request.newContext({ baseURL });
  const signature = createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
  const shopHeaders = (deliveryId: string) => ({
    "Content-Type": "application/json",
    "X-Shopify-Hmac-Sha256": signature,
    "X-Shopify-Topic": "orders/create",
    "X-Shopify-Webhook-Id": deliveryId,
    "X-Shopify-Shop-Domain": "sources-shop.myshopify.com",
  });
  await page.getByRole("button", { name: "Listen for a test request" }).click();
  const draftCall = await api.post(`/api/campaigns/${id}/trigger`, { headers: shopHeaders(randomUUID()), data: rawBody });
  expect(draftCall.status()).toBe(409);
  const review = page.getByRole("dialog", { name: "Request received" });
  await expect(review).toBeVisible({ timeout: 15_000 });
  await expect(review.getByLabel("Use shipping_address.phone as the phone number")).toBeVisible();
  await expect(review.getByLabel("Type of order_number")).toBeVisible();
  await page.screenshot({ path: `${shots}/sources-listen-tree-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/sources-listen-tree-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await review.getByRole("button", { name: "Cancel" }).click();
  await expect(review).toHaveCount(0);

  // The message, then deploy: the live dialog shows the URL without a key and a signed test command.
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_confirmation · en_US · utility" });
  await page.getByLabel("Attribute for Body {{1}}").selectOption("first_name");
  await page.getByLabel("Attribute for Body {{2}}").selectOption("order_number");
  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  await expect(live).toBeVisible();
  await expect(live.getByTestId("source-url")).toHaveText(new RegExp(`/api/campaigns/${id}/trigger$`));
  await expect(live.getByTestId("source-test-command")).toContainText("openssl dgst -sha256 -hmac");
  await expect(live.getByTestId("source-test-command")).toContainText("X-Shopify-Topic: orders/create");
  await expect(live.getByRole("button", { name: "Copy test command" })).toBeVisible();
  await page.screenshot({ path: `${shots}/sources-live-1280.png` });
  await live.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");

  // The shop: no session, no key, only the signature. One delivery, retried twice with the same id.
  const deliveryId = randomUUID();
  const headers = shopHeaders(deliveryId);
  const answers: unknown[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await api.post(`/api/campaigns/${id}/trigger`, { headers, data: rawBody });
    expect(response.status(), await response.text()).toBe(202);
    answers.push(await response.json());
  }
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);

  // A body re-encoded after signing does not verify.
  const reencoded = await api.post(`/api/campaigns/${id}/trigger`, {
    headers: { ...headers, "X-Shopify-Webhook-Id": randomUUID() },
    data: JSON.stringify(JSON.parse(rawBody)),
  });
  expect(reencoded.status()).toBe(401);
  expect(reencoded.headers()["content-type"]).toBe("application/problem+json");
  await api.dispose();

  // Exactly one message, to the shipping address's number read with its country.
  await page.goto(`/campaigns/${id}/logs`);
  const table = page.getByRole("table", { name: "Messages" });
  await expect(table.locator("tbody tr[data-message-id]")).toHaveCount(1);
  await expect(table.locator("tbody tr[data-message-id]")).toContainText("+14155552671");

  // The request log: the deliveries with their topic and delivery id; the topic filter keeps them.
  await page.goto(`/campaigns/${id}/requests`);
  await page.getByLabel("Topic", { exact: true }).fill("orders/create");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/[?&]topic=orders%2Fcreate/);
  const list = page.getByRole("list", { name: "Requests" });
  // Every call is logged, the two retries too (each answered with the first call's answer).
  const delivered = list.getByRole("listitem").filter({ has: page.getByText("202", { exact: true }) });
  await expect(delivered).toHaveCount(3);
  for (const row of await list.getByRole("listitem").all()) await expect(row.getByTestId("request-topic")).toHaveText("orders/create");
  await delivered.first().locator("summary").click();
  await expect(delivered.first().getByTestId("request-delivery-id")).toHaveText(deliveryId);
  await page.screenshot({ path: `${shots}/sources-requests-1280.png`, fullPage: true });
  await page.getByRole("link", { name: "Ignored", exact: true }).click();
  await expect(page.getByText("No ignored requests with topic orders/create")).toBeVisible();
  await page.getByRole("link", { name: "Clear topic" }).click();
  await expect(page).not.toHaveURL(/topic=/);
  await page.getByRole("link", { name: "Rejected", exact: true }).click();
  await expect(page).toHaveURL(/\?outcome=rejected$/);
  // The draft's 409 while listening, and the re-encoded body's 401.
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").getByText("401", { exact: true })).toBeVisible();
  await expect(list.getByRole("listitem").getByText("409", { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/sources-requests-390.png`, fullPage: true });
});
