import { expect } from "@playwright/test";
import { createApiKeyThroughUi, signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

test("builder fields, listening for a test request, and the Requests tab", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Requests Shop" });
  const key = await createApiKeyThroughUi(page, "Shop backend");
  await page.goto("/campaigns");
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const create = page.getByRole("dialog", { name: "New campaign" });
  await create.getByLabel("Campaign name").fill("Order shipped");
  await create.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const id = page.url().split("/").pop()!;

  // Add field twice: two rows, and no problem shown on rows nobody has touched yet.
  const addField = page.getByRole("button", { name: "Add field" });
  const triggerNode = page.getByRole("group", { name: "Trigger: your system calls the webhook" });
  const problems = triggerNode.getByRole("alert").filter({ hasText: /\S/ });
  await addField.click();
  await expect(page.getByLabel("Request field 1")).toBeFocused();
  await expect(problems).toHaveCount(0);
  await addField.click();
  await expect(page.getByLabel("Request field 2")).toBeVisible();
  await expect(page.getByLabel("Request field 3")).toHaveCount(0);
  // Row 1 was left empty, so it says so now; the new row 2 does not yet.
  await expect(problems).toHaveCount(1);

  // The attribute follows the field name as it is typed…
  await page.getByLabel("Request field 1").pressSequentially("orderNumber");
  await expect(page.getByLabel("Contact attribute 1")).toHaveValue("orderNumber");
  // …until the user writes their own, which is never overwritten.
  await page.getByLabel("Contact attribute 1").fill("order_id");
  await page.getByLabel("Request field 1").press("End");
  await page.getByLabel("Request field 1").pressSequentially("X");
  await expect(page.getByLabel("Request field 1")).toHaveValue("orderNumberX");
  await expect(page.getByLabel("Contact attribute 1")).toHaveValue("order_id");
  // A long path is shown from its start once the box is left, and whole in its title.
  const longPath = "customer.shipping_address.first_name_of_the_recipient";
  await page.getByLabel("Request field 2").fill(longPath);
  await page.getByLabel("Request field 2").blur();
  await expect(page.getByLabel("Request field 2")).toHaveAttribute("title", longPath);
  expect(await page.getByLabel("Request field 2").evaluate((input) => input.scrollLeft)).toBe(0);
  // A field added by hand is required and fills the contact only when empty.
  await expect(page.getByLabel("Required 2")).toBeChecked();
  await expect(page.getByLabel("Update the contact 2")).toHaveValue("when_empty");
  await page.getByRole("button", { name: "Remove field 2" }).click();
  await page.getByRole("button", { name: "Remove field 1" }).click();

  // Listen for a test request: the draft answers 409, and its fields are offered with guessed types.
  await page.getByRole("button", { name: "Listen for a test request" }).click();
  const listen = page.getByRole("dialog", { name: "Listening for a test request…" });
  await expect(listen.getByText("Waiting for the next request")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/requests-listen-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  const api = await playwright.request.newContext({ baseURL });
  const draftCall = await api.post(`/api/campaigns/${id}/trigger`, {
    headers: { "x-api-key": key },
    data: { customer_phone: "+1 (415) 555-2671", order_number: 10482, email: "ada@example.com", shipped_on: "2026-11-24", gift: false },
  });
  expect(draftCall.status()).toBe(409);
  const review = page.getByRole("dialog", { name: "Request received" });
  await expect(review).toBeVisible({ timeout: 15_000 });
  await expect(review.getByLabel("Type of order_number")).toHaveValue("number");
  await expect(review.getByLabel("Type of email")).toHaveValue("email");
  await expect(review.getByLabel("Type of shipped_on")).toHaveValue("date");
  await expect(review.getByLabel("Type of gift")).toHaveValue("boolean");
  await review.getByLabel("Type of order_number").selectOption("string");
  await review.getByLabel("Add gift").uncheck();
  await page.screenshot({ path: `${shots}/requests-listen-review-1280.png` });
  await review.getByRole("button", { name: "Add 3 fields" }).click();
  await expect(page.getByLabel("Phone number field")).toHaveValue("customer_phone");
  await expect(page.getByLabel("Request field 1")).toHaveValue("order_number");
  await expect(page.getByLabel("Type 1")).toHaveValue("string");
  await expect(page.getByLabel("Request field 3")).toHaveValue("shipped_on");
  await expect(page.getByLabel("Request field 4")).toHaveCount(0);
  // Captured fields get the same defaults as hand-added ones (they had values in the request).
  await expect(page.getByLabel("Required 1")).toBeChecked();
  await expect(page.getByLabel("Update the contact 1")).toHaveValue("when_empty");
  await page.getByLabel("Update the contact 1").selectOption("always");
  await page.screenshot({ path: `${shots}/requests-builder-1280.png`, fullPage: true });

  // The Requests tab lists the call with its status, key, problem and body.
  await api.post(`/api/campaigns/${id}/trigger`, { headers: { "x-api-key": key }, data: { phone: "4155552671" } });
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await page.getByRole("link", { name: "Requests", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Order shipped · Requests", level: 1 })).toBeVisible();
  const list = page.getByRole("list", { name: "Requests" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").first()).toContainText("409");
  await expect(list.getByRole("listitem").first()).toContainText("Shop backend");
  await list.getByRole("listitem").nth(1).locator("summary").click();
  await expect(list.getByRole("listitem").nth(1).getByLabel("Request body")).toContainText('"order_number": 10482');
  await page.screenshot({ path: `${shots}/requests-tab-1280.png`, fullPage: true });
  await page.getByRole("link", { name: "Accepted", exact: true }).click();
  await expect(page.getByText("No accepted requests")).toBeVisible();
  await page.getByRole("link", { name: "Rejected", exact: true }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/requests-tab-390.png`, fullPage: true });
  await page.goto(`/campaigns/${id}`);
  await expect(page.getByLabel("Update the contact 1")).toHaveValue("always");
  await page.screenshot({ path: `${shots}/requests-builder-390.png`, fullPage: true });
});
