import { expect, type APIRequestContext } from "@playwright/test";
import { createApiKeyThroughUi, deployOrderCampaign, signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

async function messageStatus(api: APIRequestContext, location: string, key: string) {
  const response = await api.get(location, { headers: { "x-api-key": key } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { status: string; deliveredAt: string | null; sentAt: string | null; text: string };
}

test("deploy a campaign, trigger it with an API key, and watch the message get delivered", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Trigger Shop" });
  const campaignId = await deployOrderCampaign(page);
  const key = await createApiKeyThroughUi(page, "Shop backend");

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
  await page.getByRole("alertdialog", { name: "Pause this campaign?" }).getByRole("button", { name: "Pause campaign" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Paused");
  const paused = await api.post(`/outbound/${campaignId}`, { headers: { "x-api-key": key }, data: body });
  expect(paused.status()).toBe(409);
  expect((await paused.json()).detail).toContain("paused");
  await api.dispose();
});
