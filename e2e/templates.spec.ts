import { expect } from "@playwright/test";
import { signUpNewUser, test } from "./fixtures";

test("write a template with limits checked as you type, submit it, and the sandbox approves it within seconds", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpNewUser(page, { workspace: "Winter Shop" });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Templates" }).click();
  await expect(page.getByRole("heading", { name: "Templates", level: 1 })).toBeVisible();
  // The demo marketing template is reviewed too: it does not stay in review.
  await page.getByRole("link", { name: "New template" }).first().click();
  await expect(page.getByRole("heading", { name: "New template", level: 1 })).toBeVisible();

  const name = page.getByLabel("Name");
  await name.fill("Winter Sale");
  await expect(page.getByText("Use lowercase letters, digits and underscores only")).toBeVisible();
  await name.fill("winter_sale");
  await expect(page.getByText("Use lowercase letters, digits and underscores only")).toHaveCount(0);

  await page.getByLabel("Header (optional)").fill("Winter sale");
  await expect(page.getByText("11 / 60")).toBeVisible();
  const body = page.getByLabel("Body");
  await body.fill("{{first_name}}, our winter sale starts today");
  await expect(page.getByText("A variable cannot start or end the body")).toBeVisible();
  await body.fill("Hi {{first_name}}, our winter sale starts today: 20% off everything.");
  await expect(page.getByText("68 / 1024")).toBeVisible();
  await page.getByLabel("Example for {{first_name}}").fill("Maria");
  await page.getByLabel("Footer (optional)").fill("Reply STOP to opt out");
  await page.getByLabel("Add a button").selectOption("QUICK_REPLY");
  await page.getByRole("group", { name: "Button 1: Quick reply" }).getByLabel("Label").fill("Interested");

  // The live preview shows the example in place of the variable.
  const bubble = page.getByTestId("whatsapp-bubble");
  await expect(bubble).toContainText("Hi Maria, our winter sale starts today");
  await expect(bubble).toContainText("Winter sale");
  await expect(page.getByLabel("Message preview")).toContainText("Interested");

  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page).toHaveURL(/\/templates$/);
  const row = page.getByRole("row").filter({ hasText: "winter_sale" });
  await expect(row).toContainText("In review");
  // The sandbox reviews in SANDBOX_TEMPLATE_REVIEW_MS (5 s by default).
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: "winter_sale" })).toContainText("Approved", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("row").filter({ hasText: "spring_sale" })).toContainText("Approved");
});
