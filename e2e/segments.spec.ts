import { expect, type Page } from "@playwright/test";
import { createApiKeyThroughUi, signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";

// Three people of Madrid, typed three ways, and one of Barcelona.
const CONTACTS = [
  { phone: "+34612000001", name: "Lucía", attributes: { city: "Madrid" } },
  { phone: "+34612000002", name: "Mateo", attributes: { city: " madrid " } },
  { phone: "+34612000003", name: "Sofía", attributes: { city: "MADRID" } },
  { phone: "+34612000004", name: "Pau", attributes: { city: "Barcelona" } },
];

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/segments-${name}-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a text condition ignores case and surrounding spaces unless it matches case", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Segments Shop" });
  const key = await createApiKeyThroughUi(page, "Segments e2e");
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-api-key": key } });
  expect((await api.post("/api/v1/contact-attributes", { data: { key: "city", type: "string" } })).ok()).toBe(true);
  expect((await api.post("/api/v1/contacts/bulk", { data: CONTACTS })).status()).toBe(200);
  await api.dispose();

  await page.goto("/contacts/segments/new");
  await page.getByLabel("Name", { exact: true }).fill("Madrid");
  await page.getByRole("button", { name: "Add condition" }).click();
  await page.getByLabel("Attribute of condition 1").selectOption("city");
  await page.getByLabel("Operator of condition 1").selectOption("equals");
  await page.getByLabel("Value of condition 1").fill("Madrid");
  // "Madrid", " madrid " and "MADRID" all count.
  await expect(page.getByTestId("segment-count")).toHaveText("3 contacts match");
  await shoot(page, "builder");

  const matchCase = page.getByRole("checkbox", { name: "Match case in condition 1" });
  await matchCase.check();
  await expect(page.getByTestId("segment-count")).toHaveText("1 contact matches");

  await page.getByLabel("Operator of condition 1").selectOption("starts_with");
  await page.getByLabel("Value of condition 1").fill("mad");
  await expect(page.getByTestId("segment-count")).toHaveText("0 contacts match");
  await matchCase.uncheck();
  await expect(page.getByTestId("segment-count")).toHaveText("3 contacts match");

  // Saved with "Match case" on, the segment keeps it.
  await page.getByLabel("Operator of condition 1").selectOption("equals");
  await page.getByLabel("Value of condition 1").fill(" madrid ");
  await matchCase.check();
  await expect(page.getByTestId("segment-count")).toHaveText("1 contact matches");
  await page.getByRole("button", { name: "Create segment" }).click();
  await expect(page).toHaveURL(/\/contacts\/segments\/seg_[A-Za-z0-9]+$/);
  await expect(page.getByRole("checkbox", { name: "Match case in condition 1" })).toBeChecked();
  await expect(page.getByTestId("segment-count")).toHaveText("1 contact matches");
});
