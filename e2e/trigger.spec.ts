import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { signUpNewUser } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

async function deployOrderCampaign(page: Page): Promise<string> {
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New campaign" });
  await dialog.getByLabel("Campaign name").fill("Order confirmation");
  await dialog.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const id = page.url().split("/").pop()!;

  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Request field 1").fill("name");
  await page.getByLabel("Request field 1").blur();
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Request field 2").fill("order_number");
  await page.getByLabel("Request field 2").blur();
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_confirmation · en_US · utility" });
  await page.getByLabel("Attribute for Body {{1}}").selectOption("name");
  await page.getByLabel("Attribute for Body {{2}}").selectOption("order_number");
  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  await expect(live).toBeVisible();
  await live.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  return id;
}

async function createApiKey(page: Page): Promise<string> {
  await page.getByRole("link", { name: "API Keys" }).click();
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill("Shop backend");
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  const reveal = page.getByRole("dialog", { name: "Save your API key" });
  const key = await reveal.getByLabel("API key").inputValue();
  await reveal.getByRole("button", { name: "Done" }).click();
  return key;
}

async function messageStatus(api: APIRequestContext, location: string, key: string) {
  const response = await api.get(location, { headers: { "x-api-key": key } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { status: string; deliveredAt: string | null; sentAt: string | null; text: string };
}

test("deploy a campaign, trigger it with an API key, and watch the message get delivered", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Trigger Shop" });
  const campaignId = await deployOrderCampaign(page);
  const key = await createApiKey(page);

  // An external system: no session cookie, only the key.
  const api = await playwright.request.newContext({ baseURL });
  const body = { phone: "+14155552671", name: "Maria", order_number: "A-10482", unmapped: "ignored" };

  // Bad input is refused with a problem document and sends nothing.
  const invalid = await api.post(`/api/campaigns/${campaignId}/trigger`, {
    headers: { "x-api-key": key },
    data: [{ ...body }, { ...body, phone: "12345" }],
  });
  expect(invalid.status()).toBe(422);
  expect(invalid.headers()["content-type"]).toBe("application/problem+json");
  expect((await invalid.json()).errors).toEqual([expect.objectContaining({ path: "[1].phone" })]);
  expect((await api.post(`/api/campaigns/${campaignId}/trigger`, { data: body })).status()).toBe(401);

  // Dry run: rendered, nothing stored.
  const dry = await api.post(`/outbound/${campaignId}?dryRun=true`, { headers: { "x-api-key": key }, data: body });
  expect(dry.status()).toBe(200);
  expect((await dry.json()).text).toContain("Maria");

  const accepted = await api.post(`/api/campaigns/${campaignId}/trigger`, {
    headers: { "x-api-key": key, "Idempotency-Key": "order-A-10482" },
    data: body,
  });
  expect(accepted.status()).toBe(202);
  const message = (await accepted.json()) as { id: string; status: string; phone: string };
  expect(message).toMatchObject({ status: "queued", phone: "+14155552671", campaignId });
  const location = accepted.headers()["location"]!;
  expect(location).toBe(`/api/v1/messages/${message.id}`);
  expect(accepted.headers()["ratelimit-policy"]).toContain('"campaign";q=600;w=60');

  // A retry with the same Idempotency-Key sends nothing new.
  const replay = await api.post(`/api/campaigns/${campaignId}/trigger`, {
    headers: { "x-api-key": key, "Idempotency-Key": "order-A-10482" },
    data: body,
  });
  expect(replay.status()).toBe(202);
  expect(replay.headers()["idempotent-replay"]).toBe("true");
  expect((await replay.json()).id).toBe(message.id);

  // The sandbox sends it at once and reports it delivered (then read) shortly after.
  await expect
    .poll(async () => (await messageStatus(api, location, key)).deliveredAt, { timeout: 30_000, intervals: [500] })
    .not.toBeNull();
  const delivered = await messageStatus(api, location, key);
  expect(["delivered", "read"]).toContain(delivered.status);
  expect(delivered.text).toContain("Maria");
  expect(delivered.text).toContain("A-10482");

  // The campaign's logs page shows the one message, delivered.
  await page.goto(`/campaigns/${campaignId}/logs`);
  const table = page.getByRole("table", { name: "Messages" });
  const row = table.locator(`tr[data-message-id="${message.id}"]`);
  await expect(row).toContainText("+14155552671");
  await expect(row).toContainText(/Delivered|Read/);
  await expect(table.locator("tbody tr[data-message-id]")).toHaveCount(1);
  await page.screenshot({ path: `${shots}/trigger-logs.png`, fullPage: true });

  // Paused campaigns refuse triggers with a 409 naming the status.
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Paused");
  const paused = await api.post(`/outbound/${campaignId}`, { headers: { "x-api-key": key }, data: body });
  expect(paused.status()).toBe(409);
  expect((await paused.json()).detail).toContain("paused");
  await api.dispose();
});
